package io.quotaflow.cli.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The demo's temporary directories: created fresh, deleted with everything in them. */
public final class TempDirs {

  private TempDirs() {}

  /** A new directory under the system's temporary directory, by its real path (no symlink in it). */
  public static Path create(String prefix) throws IOException {
    return Files.createTempDirectory(prefix).toRealPath();
  }

  /** Deletes {@code dir} and everything below it; nothing happens when it does not exist. */
  public static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
