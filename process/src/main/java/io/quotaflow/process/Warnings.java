package io.quotaflow.process;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Warning lines of a command on its standard error, {@code quotaflow <command>: warning: ...},
 * the form of its error lines ({@link ProcessCommandLine}): a deprecated flag or variable, a flag
 * that overrides a configuration file.
 */
public final class Warnings {

  private final PrintWriter err;
  private final String command;

  public Warnings(PrintWriter err, String command) {
    this.err = err;
    this.command = command;
  }

  /** The warnings of {@code spec}'s command, on its error stream (standard error unless a test set another). */
  public static Warnings of(CommandSpec spec) {
    CommandLine commandLine = spec == null ? null : spec.commandLine();
    if (commandLine == null) {
      return new Warnings(new PrintWriter(System.err, true), "quotaflow");
    }
    // "quotaflow bench pools" under the quotaflow command, and the same when a process's main runs it alone.
    String name = spec.qualifiedName();
    return new Warnings(commandLine.getErr(), name.startsWith("quotaflow") ? name : "quotaflow " + name);
  }

  public void warn(String message) {
    err.println(command + ": warning: " + message);
    err.flush();
  }

  /** A deprecated flag was given: it still works. */
  public void deprecatedFlag(String old, String replacement) {
    warn(old + " is deprecated; use " + replacement);
  }
}
