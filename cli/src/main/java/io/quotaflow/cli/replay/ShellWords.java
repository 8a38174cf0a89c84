package io.quotaflow.cli.replay;

import java.util.List;
import java.util.regex.Pattern;

/** {@code --set} arguments as a user pastes them into a shell: each one single-quoted unless it holds only safe characters. */
final class ShellWords {

  // Arguments made only of these need no quotes in a shell; anything else (a '*' a shell would glob, a space) is single-quoted.
  private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_./=:,+@%-]+");

  private ShellWords() {}

  /** {@code --set A --set 'B*'}; "(parameters in force)" for none. Plain text, not escaped. */
  static String setArguments(List<String> sets) {
    if (sets.isEmpty()) {
      return "(parameters in force)";
    }
    StringBuilder command = new StringBuilder();
    for (String set : sets) {
      if (command.length() > 0) {
        command.append(' ');
      }
      String argument = set == null ? "" : set;
      command.append("--set ").append(SHELL_SAFE.matcher(argument).matches() ? argument
          : "'" + argument.replace("'", "'\\''") + "'");
    }
    return command.toString();
  }
}
