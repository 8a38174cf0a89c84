package io.quotaflow.cgroups;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Groups and processes that this JVM creates for itself and must leave no trace of: the demo's
 * workloads and the tests on real cgroups. Task groups go under the parent of {@code config} (made
 * if missing), and child processes of this JVM are attached to them before they run a single
 * instruction of their own. {@link #close()} thaws, kills (by the processes' own handles), reaps
 * and removes every group it created, and the parent if it created that too, whatever happened in
 * between; it touches nothing it did not create.
 */
public final class CgroupSandbox implements AutoCloseable {

  /** A reaped task can linger in its group for a moment, so rmdir is tried again on EBUSY. */
  private static final Duration REMOVE_PATIENCE = Duration.ofSeconds(10);
  private static final Duration THAW_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);

  private final Cgroups cgroups;
  private final CgroupConfig config;
  private final boolean createdParent;
  private final Set<TaskId> groups = new LinkedHashSet<>();
  private final List<Process> processes = new ArrayList<>();

  private CgroupSandbox(Cgroups cgroups, CgroupConfig config, boolean createdParent) {
    this.cgroups = cgroups;
    this.config = config;
    this.createdParent = createdParent;
  }

  /**
   * Opens the tree of {@code config} and creates its parent where missing.
   *
   * @throws CgroupException no usable tree ({@link CgroupWriteException}: not writable here)
   */
  public static CgroupSandbox open(CgroupConfig config) throws IOException {
    Cgroups cgroups = Cgroups.open(config);
    boolean created = cgroups.createParent();
    return new CgroupSandbox(cgroups, config, created);
  }

  public Cgroups cgroups() {
    return cgroups;
  }

  /** The configuration a collector or enforcer is given to work on the same parent. */
  public CgroupConfig config() {
    return config;
  }

  /** A new empty task group, removed again by {@link #close()}. */
  public TaskId group(String name) throws IOException {
    TaskId task = TaskId.of(name);
    groups.add(task);
    cgroups.create(task);
    return task;
  }

  /**
   * Starts {@code command} inside {@code group}. A shell holds it on stdin until the process has
   * been attached to every hierarchy and then execs it, so all it burns is charged to the group.
   */
  public Process spawn(TaskId group, List<String> command) throws IOException {
    return spawn(group, command, ProcessBuilder.Redirect.DISCARD);
  }

  /** As {@link #spawn(TaskId, List)}, with the process's standard output sent to {@code stdout}. */
  public Process spawn(TaskId group, List<String> command, ProcessBuilder.Redirect stdout) throws IOException {
    List<String> argv = new ArrayList<>(List.of("sh", "-c", "read go; exec \"$@\"", "sh"));
    argv.addAll(command);
    return start(group, argv, stdout);
  }

  /** As {@link #spawn}, running {@code sh -c script}. */
  public Process spawnShell(TaskId group, String script) throws IOException {
    return start(group, List.of("sh", "-c", "read go; " + script), ProcessBuilder.Redirect.DISCARD);
  }

  /** A process that burns one CPU. */
  public Process busy(TaskId group) throws IOException {
    return spawnShell(group, "while :; do :; done");
  }

  /** A process that sleeps for ten minutes. */
  public Process idle(TaskId group) throws IOException {
    return spawnShell(group, "exec sleep 600");
  }

  private Process start(TaskId group, List<String> argv, ProcessBuilder.Redirect stdout) throws IOException {
    Process process = new ProcessBuilder(argv)
        .redirectOutput(stdout)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    processes.add(process);
    try {
      cgroups.attach(group, process.pid());
    } catch (IOException | RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
    OutputStream stdin = process.getOutputStream();
    stdin.write("go\n".getBytes(StandardCharsets.US_ASCII));
    stdin.flush();
    return process;
  }

  /**
   * Ends one of this JVM's processes in {@code group} before the sandbox closes: thaws the group first, since a
   * frozen task cannot die until thawed (v1), then kills and reaps the process.
   */
  public void thawAndKill(TaskId group, Process process) throws IOException, InterruptedException {
    if (cgroups.freezerSupported() && cgroups.exists(group)) {
      cgroups.thaw(group, THAW_TIMEOUT);
    }
    kill(process);
  }

  /** Ends one of this JVM's processes by its handle and reaps it, so its group can be removed. */
  public static void kill(Process process) throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      throw new IllegalStateException("pid " + process.pid() + " did not exit after SIGKILL");
    }
  }

  /**
   * The parent's directory in the hierarchy mounted at {@code <root>/<mount>}, found by name, for
   * reading kernel files directly rather than through the code under test.
   */
  public Path parentDir(String mount) throws IOException {
    String parentName = parentName();
    try (Stream<Path> paths = Files.walk(config.root().resolve(mount), 4)) {
      return paths.filter(p -> p.getFileName().toString().equals(parentName)).findFirst()
          .orElseThrow(() -> new IOException("no " + parentName + " under " + config.root().resolve(mount)));
    }
  }

  /** A kernel file of a task group, trimmed. */
  public String read(String mount, TaskId task, String file) throws IOException {
    return Files.readString(parentDir(mount).resolve(task.value()).resolve(file)).trim();
  }

  /** The parent group's own name (its last path component). */
  public String parentName() {
    if (config.parent() instanceof CgroupParent.UnderOwnGroup own) {
      return own.name();
    }
    return Path.of(((CgroupParent.Fixed) config.parent()).path()).getFileName().toString();
  }

  /** Removes a group whose processes were killed, waiting out a task that lingers (EBUSY). */
  public void remove(TaskId group) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + REMOVE_PATIENCE.toNanos();
    while (true) {
      try {
        cgroups.remove(group);
        groups.remove(group);
        return;
      } catch (CgroupWriteException e) {
        if (e.error() != KernelError.EBUSY || System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(20);
      }
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    List<Exception> failures = new ArrayList<>();
    // A frozen task cannot die until thawed (v1): thaw, then kill, reap and remove.
    if (cgroups.freezerSupported()) {
      for (TaskId group : groups) {
        try {
          if (cgroups.exists(group)) {
            cgroups.thaw(group, THAW_TIMEOUT);
          }
        } catch (IOException | RuntimeException e) {
          failures.add(e);
        }
      }
    }
    for (Process process : processes) {
      try {
        kill(process);
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    for (TaskId group : List.copyOf(groups)) {
      try {
        remove(group);
      } catch (IOException | RuntimeException e) {
        failures.add(e);
      }
    }
    if (createdParent) {
      try {
        cgroups.removeParent();
      } catch (IOException | RuntimeException e) {
        failures.add(e);
      }
    }
    if (!failures.isEmpty()) {
      IOException left = new IOException("cleanup of " + cgroups.describe() + " left something behind",
          failures.get(0));
      failures.stream().skip(1).forEach(left::addSuppressed);
      throw left;
    }
  }
}
