package io.quotaflow.cli;

import io.quotaflow.process.UsageException;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Opens {@code simulate}'s {@code --input} and {@code --output} files before anything is simulated,
 * so a path that cannot be used is a usage error of one line ("--output /tmp: is a directory"),
 * not an exception's text after a run.
 */
final class SimulateFiles {

  private SimulateFiles() {}

  static BufferedReader openInput(String input) {
    Path path = Path.of(input);
    if (Files.isDirectory(path)) {
      throw new UsageException("--input " + input + ": is a directory");
    }
    try {
      // Not Files.newBufferedReader: its strict decoder ends the run at the first byte that is not UTF-8
      // ("Input length = 1"); this one replaces it with U+FFFD, and the simulator refuses that line by number.
      return new BufferedReader(new InputStreamReader(Files.newInputStream(path), StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      throw new UsageException("--input " + input + ": no such file");
    } catch (IOException e) {
      throw new UsageException("--input " + input + ": " + problem(e, "not readable"));
    }
  }

  /** Opens (and truncates) the output; refuses the input's own file, which would be emptied before it is read. */
  static BufferedWriter openOutput(String output, String input) {
    Path path = Path.of(output);
    if (Files.isDirectory(path)) {
      throw new UsageException("--output " + output + ": is a directory");
    }
    if (!"-".equals(input) && sameFile(path, Path.of(input))) {
      throw new UsageException("--output " + output + ": is the --input file");
    }
    try {
      return Files.newBufferedWriter(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UsageException("--output " + output + ": " + outputProblem(path, e));
    }
  }

  /** Why the output could not be opened, in the words of someone choosing another path. */
  static String outputProblem(Path path, IOException e) {
    Path parent = path.toAbsolutePath().getParent();
    if (e instanceof NoSuchFileException) {
      return "no such directory " + displayed(path.getParent(), parent);
    }
    if (parent != null && Files.exists(parent) && !Files.isDirectory(parent)) {
      return displayed(path.getParent(), parent) + " is not a directory";
    }
    return problem(e, "not writable");
  }

  /** The parent as the user wrote it when they wrote one, else the absolute one. */
  private static String displayed(Path given, Path absolute) {
    return String.valueOf(given != null ? given : absolute);
  }

  private static String problem(IOException e, String denied) {
    if (e instanceof AccessDeniedException) {
      return denied + " (permission denied)";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return denied + " (" + fs.getReason().toLowerCase(java.util.Locale.ROOT) + ")";
    }
    return denied + " (" + e.getMessage() + ")";
  }

  private static boolean sameFile(Path a, Path b) {
    try {
      return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
    } catch (IOException e) {
      return false; // whichever cannot be looked at is reported when it is opened
    }
  }
}
