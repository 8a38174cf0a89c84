package io.quotaflow.testharness;

import io.quotaflow.embedded.Directories;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.opentest4j.AssertionFailedError;

/**
 * A Quotaflow process (broker, streams app, collector, enforcer) run as its own JVM on the test's
 * class path, as it runs in production: so that a test can kill it with SIGKILL and nothing of it
 * survives in the test's JVM. Output goes to a log file per start, kept for the failure message.
 * Ended only through its own handle ({@link #kill}, {@link #stop}, {@link #close}), never by name.
 *
 * <p>Each child has a {@code java.io.tmpdir} of its own, deleted once the child is gone: RocksDB extracts its JNI
 * library (~14 MB) into the temporary directory at every start and deletes it only on a normal exit, so every child
 * a test killed left one in the machine's {@code /tmp} (eight per {@code ./mvnw verify}).
 */
public final class ChildJvm implements AutoCloseable {
  /** Small heaps and the serial collector: several children share two cores with the test. */
  public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private static final Duration EXIT_WAIT = Duration.ofSeconds(30);

  private final String name;
  private final Process process;
  private final Path log;
  private final Path tmpDir;

  private ChildJvm(String name, Process process, Path log, Path tmpDir) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.tmpDir = tmpDir;
  }

  /**
   * Starts {@code mainClass args} in a new JVM with {@link #DEFAULT_JVM_OPTIONS}.
   *
   * @param name what the failure messages call it, and the log file's prefix
   * @param logDir where the log file is written (one file per start)
   * @param env variables added to the test's environment
   */
  public static ChildJvm start(String name, Path logDir, String mainClass, List<String> args, Map<String, String> env)
      throws IOException {
    return start(name, logDir, DEFAULT_JVM_OPTIONS, mainClass, args, env);
  }

  public static ChildJvm start(String name, Path logDir, List<String> jvmOptions, String mainClass, List<String> args,
      Map<String, String> env) throws IOException {
    Files.createDirectories(logDir);
    Path log = Files.createTempFile(logDir, name + "-", ".log");
    Path tmpDir = Directories.temporary(name + "-tmp-");
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmOptions);
    command.add("-Djava.io.tmpdir=" + tmpDir);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(env);
    try {
      return new ChildJvm(name, builder.start(), log, tmpDir);
    } catch (IOException e) {
      Directories.deleteRecursively(tmpDir);
      throw e;
    }
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILL (what {@link Process#destroyForcibly()} sends on Linux), then waits until it is gone. */
  public void kill() {
    process.destroyForcibly();
    if (awaitExit()) {
      Directories.deleteRecursively(tmpDir);
    }
  }

  /** SIGTERM: the process's own graceful stop; SIGKILL if it is not gone within 30 s. Returns the exit code. */
  public int stop() {
    process.destroy();
    if (awaitExit()) {
      Directories.deleteRecursively(tmpDir);
    } else {
      kill();
    }
    return process.exitValue();
  }

  /** Waits up to {@code timeout} for the process to end by itself; its exit code, or empty when it still runs. */
  public OptionalInt awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      return OptionalInt.empty();
    }
    Directories.deleteRecursively(tmpDir);
    return OptionalInt.of(process.exitValue());
  }

  /** The child's {@code java.io.tmpdir}; it no longer exists once the child is seen gone. */
  public Path tmpDir() {
    return tmpDir;
  }

  /** Everything it printed so far. */
  public String output() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(log " + log + " unreadable: " + e + ")";
    }
  }

  /**
   * Waits until its output matches {@code pattern} and returns the first match; fails, with the end of
   * the output, when the process exits first or the deadline passes.
   */
  public Matcher awaitOutput(Pattern pattern, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Matcher matcher = pattern.matcher(output());
      if (matcher.find()) {
        return matcher;
      }
      if (!process.isAlive()) {
        throw new AssertionFailedError(name + " exited (" + process.exitValue() + ") before printing /" + pattern + "/\n" + tail());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionFailedError(name + " did not print /" + pattern + "/ within " + timeout + "\n" + tail());
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
  }

  /** The last 4,000 characters of its output, for a failure message. */
  public String tail() {
    String text = output();
    return "--- " + name + " (pid " + pid() + ", " + log + ")\n" + (text.length() > 4000 ? "…" + text.substring(text.length() - 4000) : text);
  }

  /** Kills it if it still runs. */
  @Override
  public void close() {
    if (process.isAlive()) {
      kill();
    } else {
      Directories.deleteRecursively(tmpDir);
    }
  }

  private boolean awaitExit() {
    try {
      return process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
