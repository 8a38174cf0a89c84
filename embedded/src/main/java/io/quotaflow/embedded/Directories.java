package io.quotaflow.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Temporary directories, created fresh and deleted with everything in them: for brokers that keep
 * nothing, and for the demo's and the benchmarks' state and simulated cgroup trees.
 */
public final class Directories {
  private Directories() {}

  /**
   * A new directory under the system's temporary directory, by its real path: the cgroups module
   * refuses groups reached through a symlink, and {@code /tmp} may be one.
   */
  public static Path temporary(String prefix) {
    try {
      return Files.createTempDirectory(prefix).toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory", e);
    }
  }

  /** Deletes {@code dir} and everything below it; symlinks are removed, never followed. Nothing happens when it does not exist. */
  public static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try {
      Files.walkFileTree(dir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          if (e instanceof NoSuchFileException) {
            return FileVisitResult.CONTINUE; // deleted meanwhile: what we wanted
          }
          throw e;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          if (e != null && !(e instanceof NoSuchFileException)) {
            throw e;
          }
          Files.deleteIfExists(d);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
