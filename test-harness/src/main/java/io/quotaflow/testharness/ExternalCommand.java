package io.quotaflow.testharness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs an outside tool (node, npm, python3, …) as a child process with a deadline, keeping its
 * output in files: how tests check that other languages' clients read our topics.
 */
public final class ExternalCommand {

  /** What a finished command left: exit code, standard output, standard error. */
  public record Result(int exitCode, String stdout, String stderr) {
    public String describe() {
      return "exit " + exitCode + "\n--- stdout\n" + tail(stdout) + "\n--- stderr\n" + tail(stderr);
    }

    private static String tail(String text) {
      return text.length() > 4000 ? "…" + text.substring(text.length() - 4000) : text;
    }
  }

  private ExternalCommand() {}

  /** Whether {@code command --version} runs: the tool is installed and on the PATH. */
  public static boolean available(String command) {
    try {
      Process process = new ProcessBuilder(command, "--version").redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Runs {@code command} in {@code dir}; a command still running at the deadline is destroyed (by its own handle). */
  public static Result run(Path dir, Duration timeout, List<String> command) throws IOException, InterruptedException {
    Path stdout = Files.createTempFile(dir, "stdout", ".txt");
    Path stderr = Files.createTempFile(dir, "stderr", ".txt");
    Process process = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout + ":\n"
            + new Result(-1, read(stdout), read(stderr)).describe());
      }
      return new Result(process.exitValue(), read(stdout), read(stderr));
    } finally {
      if (process.isAlive()) {
        process.destroyForcibly();
      }
      Files.deleteIfExists(stdout);
      Files.deleteIfExists(stderr);
    }
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
