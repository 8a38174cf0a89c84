package io.quotaflow.collector;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupException;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.CgroupWriteException;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.KernelError;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.embedded.junit.KafkaWait;
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

/**
 * Real cgroups for the collector's tests: a parent {@code quotaflow-test-<random>} under this
 * JVM's own group in each hierarchy, task groups under it, and child processes of this JVM
 * attached to them. {@link #close()} thaws, kills (by the processes' own handles), reaps and
 * removes everything it created, whatever the test did; it touches nothing else.
 */
final class CgroupSandbox implements AutoCloseable {

  static final Path ROOT = CgroupConfig.DEFAULT_ROOT;
  private static final Duration REMOVE_PATIENCE = Duration.ofSeconds(10);

  final Cgroups cgroups;
  final CgroupConfig config;
  final String parentName;
  private final Set<TaskId> groups = new LinkedHashSet<>();
  private final List<Process> processes = new ArrayList<>();

  private CgroupSandbox(Cgroups cgroups, CgroupConfig config, String parentName) {
    this.cgroups = cgroups;
    this.config = config;
    this.parentName = parentName;
  }

  /** A sandbox on this node's real tree of {@code layout}, or the test is skipped with the reason. */
  static CgroupSandbox openOrSkip(CgroupLayout layout) throws IOException {
    assumeTrue(Files.isDirectory(ROOT), "no " + ROOT + " on this machine");
    String parentName = "quotaflow-test-" + UUID.randomUUID().toString().substring(0, 8);
    CgroupConfig config = new CgroupConfig(ROOT, layout, CgroupParent.underOwnGroup(parentName));
    Cgroups cgroups;
    try {
      cgroups = Cgroups.open(config);
    } catch (CgroupException e) {
      assumeTrue(false, "no usable cgroup " + layout + " tree: " + e.getMessage());
      throw e;
    }
    try {
      cgroups.createParent();
    } catch (CgroupWriteException e) {
      assumeTrue(false, "cgroups are not writable here (" + e.getMessage() + ")");
    }
    return new CgroupSandbox(cgroups, config, parentName);
  }

  TaskId group(String name) throws IOException {
    TaskId task = TaskId.of(name);
    groups.add(task);
    cgroups.create(task);
    return task;
  }

  /**
   * Starts {@code sh -c script} inside {@code group}: the shell waits on stdin until it has been
   * attached to every hierarchy, so all it burns is charged to the group.
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

  /** Ends one of our processes by its handle and reaps it. */
  static void kill(Process process) throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("pid " + process.pid() + " did not exit after SIGKILL");
    }
  }

  /** Removes a group whose processes were killed; a reaped task can linger a moment (EBUSY). */
  void remove(TaskId group) {
    KafkaWait.until(REMOVE_PATIENCE, "group " + group + " to be removable", () -> {
      try {
        cgroups.remove(group);
        return true;
      } catch (CgroupWriteException e) {
        if (e.error() == KernelError.EBUSY) {
          return false;
        }
        throw new IllegalStateException(e);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @Override
  public void close() throws Exception {
    List<Exception> failures = new ArrayList<>();
    // A frozen task cannot die until thawed (v1): thaw, then kill, reap and remove.
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
        remove(group);
      } catch (Exception | AssertionError e) {
        failures.add(e instanceof Exception ex ? ex : new IllegalStateException(e));
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
}
