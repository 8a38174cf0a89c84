package io.quotaflow.cgroups;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Real cgroups for tests: a parent {@code quotaflow-test-<random>} under this JVM's own group in
 * each hierarchy, task groups under it, and child processes of this JVM attached to them.
 * {@link #close()} thaws, kills (through the processes' own handles), waits, and removes every
 * group it created, whatever the test did. It touches nothing it did not create.
 */
final class RealCgroupSandbox implements AutoCloseable {

  private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");

  final Cgroups cgroups;
  final String parentName;
  private final Set<TaskId> groups = new LinkedHashSet<>();
  private final List<Process> processes = new ArrayList<>();

  private RealCgroupSandbox(Cgroups cgroups, String parentName) {
    this.cgroups = cgroups;
    this.parentName = parentName;
  }

  /** A sandbox on this node's real tree of {@code layout}, or the test is skipped with the reason. */
  static RealCgroupSandbox openOrSkip(CgroupLayout layout) throws IOException {
    assumeTrue(Files.isDirectory(CGROUP_ROOT), "no " + CGROUP_ROOT + " on this machine");
    String parentName = "quotaflow-test-" + UUID.randomUUID().toString().substring(0, 8);
    Cgroups cgroups;
    try {
      cgroups = Cgroups.open(new CgroupConfig(CGROUP_ROOT, layout,
          CgroupParent.underOwnGroup(parentName)));
    } catch (CgroupException e) {
      assumeTrue(false, "no usable cgroup " + layout + " tree: " + e.getMessage());
      throw e;
    }
    try {
      cgroups.createParent();
    } catch (CgroupWriteException e) {
      assumeTrue(false, "cgroups are not writable here (" + e.getMessage() + ")");
    }
    return new RealCgroupSandbox(cgroups, parentName);
  }

  /** The test parent's directory in the hierarchy mounted at {@code /sys/fs/cgroup/<mount>}. */
  Path parentDir(String mount) throws IOException {
    try (Stream<Path> paths = Files.walk(CGROUP_ROOT.resolve(mount), 4)) {
      return paths.filter(p -> p.getFileName().toString().equals(parentName)).findFirst().orElseThrow();
    }
  }

  /** A new empty task group. */
  TaskId group(String name) throws IOException {
    TaskId task = TaskId.of(name);
    groups.add(task);
    cgroups.create(task);
    return task;
  }

  /**
   * Starts {@code sh -c script} inside {@code group}: the shell waits on stdin until it has been
   * attached to every hierarchy, so all of its CPU and memory is charged to the group.
   */
  Process spawn(TaskId group, String script) throws IOException {
    Process process = new ProcessBuilder("sh", "-c", "read go; " + script)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    processes.add(process);
    cgroups.attach(group, process.pid());
    OutputStream stdin = process.getOutputStream();
    stdin.write("go\n".getBytes(StandardCharsets.US_ASCII));
    stdin.flush();
    return process;
  }

  Process busy(TaskId group) throws IOException {
    return spawn(group, "while :; do :; done");
  }

  Process idle(TaskId group) throws IOException {
    return spawn(group, "exec sleep 600");
  }

  /** Ends one of our processes by its handle and reaps it, so its group can be removed. */
  static void kill(Process process) throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("pid " + process.pid() + " did not exit after SIGKILL");
    }
  }

  /** Polls until the condition holds; false on timeout. Tests wait on the kernel, never sleep. */
  static boolean eventually(Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(20);
    }
    return condition.getAsBoolean();
  }

  @Override
  public void close() throws Exception {
    List<Exception> failures = new ArrayList<>();
    // Frozen tasks cannot die until thawed (v1), so thaw first, then kill, reap and remove.
    if (cgroups.freezerSupported()) {
      for (TaskId group : groups) {
        try {
          if (cgroups.exists(group)) {
            cgroups.thaw(group, Duration.ofSeconds(5));
          }
        } catch (Exception e) {
          failures.add(e);
        }
      }
    }
    for (Process process : processes) {
      try {
        kill(process);
      } catch (Exception e) {
        failures.add(e);
      }
    }
    for (TaskId group : groups) {
      try {
        removeWithRetry(group);
      } catch (Exception e) {
        failures.add(e);
      }
    }
    try {
      cgroups.removeParent();
    } catch (Exception e) {
      failures.add(e);
    }
    if (!failures.isEmpty()) {
      Exception first = failures.get(0);
      failures.stream().skip(1).forEach(first::addSuppressed);
      throw new IllegalStateException("cleanup of " + parentName + " left something behind", first);
    }
  }

  /** A reaped task can linger in the group for a moment; rmdir is retried briefly on EBUSY. */
  private void removeWithRetry(TaskId group) throws Exception {
    for (int attempt = 0; ; attempt++) {
      try {
        cgroups.remove(group);
        return;
      } catch (CgroupWriteException e) {
        if (e.error() != KernelError.EBUSY || attempt >= 50) {
          throw e;
        }
        Thread.sleep(20);
      }
    }
  }
}
