package io.quotaflow.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class ProcessCommandLineTest {

  @Command(name = "quotaflow", subcommands = Tool.class)
  static final class Root {}

  @Command(name = "tool", mixinStandardHelpOptions = true)
  static final class Tool {
    @Command(name = "set", mixinStandardHelpOptions = true)
    int set() {
      throw new UsageException("weight must be > 0");
    }

    @Command(name = "show")
    int show() {
      throw new ProcessException("no topic t");
    }
  }

  private record Run(int code, String out, String err) {}

  private static Run run(Object command, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = ProcessCommandLine.of(command).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true)).execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void anErrorNamesTheWholeCommandNotItsLastWord() {
    Run usage = run(new Root(), "tool", "set");
    assertThat(usage.code()).isEqualTo(ProcessCommandLine.USAGE);
    assertThat(usage.err().lines()).containsExactly("quotaflow tool set: weight must be > 0");

    Run failure = run(new Root(), "tool", "show");
    assertThat(failure.code()).isEqualTo(ProcessCommandLine.FAILURE);
    assertThat(failure.err().lines()).containsExactly("quotaflow tool show: no topic t");
  }

  @Test
  void aSubcommandRunAsItsOwnMainIsStillNamedAsAQuotaflowCommand() {
    Run run = run(new Tool(), "set");
    assertThat(run.err().lines()).containsExactly("quotaflow tool set: weight must be > 0");
  }

  @Test
  void everyCommandsHelpListsTheExitCodes() {
    for (String[] args : new String[][] {{"tool", "--help"}, {"tool", "set", "--help"}}) {
      Run help = run(new Root(), args);
      assertThat(help.code()).isZero();
      String unwrapped = help.out().replaceAll("\\s+", " ");
      assertThat(unwrapped).contains("Exit codes:");
      ProcessCommandLine.EXIT_CODES.forEach((code, meaning) -> assertThat(unwrapped).contains(code.trim() + " " + meaning));
    }
  }
}
