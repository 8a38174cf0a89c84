package io.quotaflow.process;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/**
 * How a Quotaflow command line runs, the same for each process's own {@code main} and for the
 * {@code quotaflow} command. Exit codes ({@link #EXIT_CODES}, listed in every command's help):
 * <ul>
 *   <li>0: done (a process stopped by Ctrl-C or SIGTERM exits 130 or 143, the JVM's 128 + signal,
 *       once its graceful stop is over);</li>
 *   <li>1: a runtime failure, printed as one line ({@link ProcessException});</li>
 *   <li>2: a usage error: a flag picocli cannot parse (with the usage help), or a value that cannot
 *       be used, printed as one line ({@link UsageException}).</li>
 * </ul>
 * Any other exception is a bug and keeps its stack trace.
 */
public final class ProcessCommandLine {

  public static final int OK = CommandLine.ExitCode.OK;
  public static final int FAILURE = CommandLine.ExitCode.SOFTWARE;
  public static final int USAGE = CommandLine.ExitCode.USAGE;

  /** The exit codes as every command's {@code --help} lists them (docs/operations.md "Exit codes" says the same). */
  public static final Map<String, String> EXIT_CODES = exitCodes();

  private static final String PROGRAM = "quotaflow";

  private ProcessCommandLine() {}

  /** A command line for {@code command} with Quotaflow's error handling. */
  public static CommandLine of(Object command) {
    return configure(new CommandLine(command));
  }

  /**
   * Gives {@code commandLine} (and its subcommands) Quotaflow's error handling and lists the exit
   * codes in the help of each; returns it.
   */
  public static CommandLine configure(CommandLine commandLine) {
    commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
      if (e instanceof ProcessException problem) {
        cmd.getErr().println(commandName(cmd) + ": " + problem.getMessage());
        cmd.getErr().flush();
        return problem instanceof UsageException ? USAGE : FAILURE;
      }
      throw e;
    });
    listExitCodes(commandLine);
    return commandLine;
  }

  /**
   * The whole command, {@code quotaflow spec set}: {@code set} alone does not say which record was
   * refused. A process's own {@code main} runs its subcommand as the root ({@code streams}), which
   * is {@code quotaflow streams} to the operator, so the program name is added where it is missing.
   */
  static String commandName(CommandLine cmd) {
    String qualified = cmd.getCommandSpec().qualifiedName();
    return qualified.equals(PROGRAM) || qualified.startsWith(PROGRAM + " ") ? qualified : PROGRAM + " " + qualified;
  }

  /** The shared codes on every command that does not list its own (simulate adds one). */
  private static void listExitCodes(CommandLine cmd) {
    if (cmd.getCommandSpec().usageMessage().exitCodeList().isEmpty()) {
      cmd.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(EXIT_CODES);
    }
    cmd.getSubcommands().values().forEach(ProcessCommandLine::listExitCodes);
  }

  private static Map<String, String> exitCodes() {
    Map<String, String> codes = new LinkedHashMap<>();
    codes.put(" " + OK, "done (stopped by Ctrl-C or SIGTERM: 130 or 143, after the graceful stop)");
    codes.put(" " + FAILURE, "runtime failure (Kafka, the registry or a file cannot be used), printed as one line");
    codes.put(" " + USAGE, "usage error (an unknown flag or field, a value of the wrong type or out of range); nothing was done");
    return Collections.unmodifiableMap(codes);
  }

  /** A process's {@code main}: runs {@code command} on {@code args} and exits with its code. */
  public static void main(Object command, String[] args) {
    FormatLocale.pin();
    System.exit(of(command).execute(args));
  }
}
