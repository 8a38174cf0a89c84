package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Each process's own {@code main} and its {@code quotaflow} subcommand are one picocli command. */
class ProcessMainsTest {

  @ParameterizedTest
  @CsvSource({"collector, io.quotaflow.collector.CollectorMain, io.quotaflow.collector.CollectorCommand",
      "enforcer, io.quotaflow.enforcer.EnforcerMain, io.quotaflow.enforcer.EnforcerCommand",
      "streams, io.quotaflow.streams.StreamsMain, io.quotaflow.streams.StreamsCommand"})
  void theMainRunsTheSubcommandsCommand(String subcommand, String main, String commandClass) throws Exception {
    CommandLine registered = new CommandLine(new QuotaflowCli()).getSubcommands().get(subcommand);
    assertThat(registered.getCommand().getClass().getName()).isEqualTo(commandClass);
    String options = registered.getHelp().optionList();

    Process child = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElse("java"),
        "-cp", System.getProperty("java.class.path"), main, "--help")).redirectErrorStream(true).start();
    try {
      String help = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).isZero();
      assertThat(help).startsWith("Usage: " + subcommand + " ").contains(options);
    } finally {
      child.destroyForcibly();
    }
  }

  /** A flag that an environment variable can set says which in its help, for every process's flags. */
  @ParameterizedTest
  @CsvSource({"collector", "enforcer", "streams"})
  void everyEnvironmentVariableIsNamedInTheHelp(String subcommand) {
    // Uninterpolated, so the default values show which variables they read.
    CommandLine registered = new CommandLine(new QuotaflowCli()).setInterpolateVariables(false).getSubcommands().get(subcommand);
    Pattern env = Pattern.compile("\\$\\{env:(\\w+)");
    int seen = 0;
    for (CommandLine.Model.OptionSpec option : registered.getCommandSpec().options()) {
      String defaultValue = option.defaultValue();
      Matcher variable = env.matcher(defaultValue == null ? "" : defaultValue);
      String description = String.join(" ", option.description());
      if (variable.find()) {
        assertThat(description).as(option.longestName()).contains("env " + variable.group(1));
      }
      // Variables read in code (the connection's, the HTTP address) are named the same way;
      // CommandLineConventionsTest checks every variable the sources read is shown somewhere.
      if (description.contains("(env QUOTAFLOW_")) {
        seen++;
      }
    }
    assertThat(seen).as("flags set by the environment").isGreaterThanOrEqualTo(9);
  }
}
