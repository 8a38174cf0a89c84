package io.quotaflow.enforcer;

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
import java.io.UncheckedIOException;
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
import java.util.stream.Stream;

/**
 * Real cgroup v1 groups for the enforcer's tests: a parent {@code quotaflow-enforcer-test-<random>}
 * under this JVM's own group in each hierarchy, task groups under it, and child processes of this
 * JVM in them. {@link #close()} thaws, kills (by the processes' own handles), reaps and removes
 * every group it created, whatever the test did; it touches nothing else.
 */
final class CgroupSandbox implements AutoCloseable {

  static final Path ROOT = Path.of("/sys/fs/cgroup");

  final Cgroups cgroups;
  final String parentName;
  private final Set<TaskId> groups = new LinkedHashSet<>();
  private final List<Process> processes = new ArrayList<>();

  private CgroupSandbox(Cgroups cgroups, String parentName) {
    this.cgroups = cgroups;
    this.parentName = parentName;
  }

  /** A sandbox on this machine's v1 tree, or the test is skipped saying why. */
  static CgroupSandbox openOrSkip() throws IOException {
    assumeTrue(Files.isDirectory(ROOT.resolve("cpu")) && Files.isDirectory(ROOT.resolve("freezer")),
        "no cgroup v1 cpu and freezer hierarchies under " + ROOT + " on this machine");
    String parentName = "quotaflow-enforcer-test-" + UUID.randomUUID().toString().substring(0, 8);
    Cgroups cgroups;
    try {
      cgroups = Cgroups.open(config(parentName));
    } catch (CgroupException e) {
      assumeTrue(false, "no usable cgroup v1 tree: " + e.getMessage());
      throw e;
    }
    try {
      cgroups.createParent();
    } catch (CgroupWriteException e) {
      assumeTrue(false, "cgroups are not writable here (" + e.getMessage() + ")");
    }
    return new CgroupSandbox(cgroups, parentName);
  }

  /** What the enforcer under test is given: the same parent, opened on its own. */
  CgroupConfig config() throws IOException {
    return config(parentName);
  }

  private static CgroupConfig config(String parentName) throws IOException {
    return new CgroupConfig(ROOT, CgroupLayout.V1, CgroupParent.underOwnGroup(parentName));
  }

  /** A new empty task group. */
  TaskId group(String name) throws IOException {
    TaskId task = TaskId.of(name);
    groups.add(task);
    cgroups.create(task);
    return task;
  }

  /** Starts {@code sh -c script} in {@code group}; the shell waits on stdin until it is attached everywhere. */
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

  /** The directory of this sandbox's parent in the hierarchy mounted at {@code /sys/fs/cgroup/<mount>}. */
  Path parentDir(String mount) throws IOException {
    try (Stream<Path> paths = Files.walk(ROOT.resolve(mount), 4)) {
      return paths.filter(p -> p.getFileName().toString().equals(parentName)).findFirst().orElseThrow();
    }
  }

  /** A kernel file of a task group, read directly rather than through the module under test. */
  String read(String mount, TaskId task, String file) throws IOException {
    return Files.readString(parentDir(mount).resolve(task.value()).resolve(file)).trim();
  }

  @Override
  public void close() throws Exception {
    List<Exception> failures = new ArrayList<>();
    // A frozen task cannot die until thawed, so thaw first, then kill, reap and remove.
    for (TaskId group : groups) {
      try {
        if (cgroups.exists(group)) {
          cgroups.thaw(group, Duration.ofSeconds(5));
        }
      } catch (Exception e) {
        failures.add(e);
      }
    }
    for (Process process : processes) {
      try {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          throw new IllegalStateException("pid " + process.pid() + " did not exit after SIGKILL");
        }
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

  /** A reaped task can linger in its group for a moment: rmdir is tried again on EBUSY for a while. */
  private void removeWithRetry(TaskId group) {
    KafkaWait.until(Duration.ofSeconds(10), "group " + group + " to be removable", () -> {
      try {
        cgroups.remove(group);
        return true;
      } catch (CgroupWriteException e) {
        if (e.error() == KernelError.EBUSY) {
          return false;
        }
        throw new UncheckedIOException(e);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}
