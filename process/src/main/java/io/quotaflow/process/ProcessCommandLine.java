package io.quotaflow.process;

import picocli.CommandLine;

/**
 * How a Quotaflow command line runs, the same for each process's own {@code main} and for the
 * {@code quotaflow} command. Exit codes:
 * <ul>
 *   <li>0: done, or stopped when asked (Ctrl-C, SIGTERM);</li>
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

  private ProcessCommandLine() {}

  /** A command line for {@code command} with Quotaflow's error handling. */
  public static CommandLine of(Object command) {
    return configure(new CommandLine(command));
  }

  /** Gives {@code commandLine} (and its subcommands) Quotaflow's error handling; returns it. */
  public static CommandLine configure(CommandLine commandLine) {
    commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
      if (e instanceof ProcessException problem) {
        cmd.getErr().println("quotaflow " + cmd.getCommandName() + ": " + problem.getMessage());
        cmd.getErr().flush();
        return problem instanceof UsageException ? USAGE : FAILURE;
      }
      throw e;
    });
    return commandLine;
  }

  /** A process's {@code main}: runs {@code command} on {@code args} and exits with its code. */
  public static void main(Object command, String[] args) {
    System.exit(of(command).execute(args));
  }
}
