package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.FreezerState;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.cgroups.TaskId;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stepping allocator in a real v1 memory group: what the kernel charges it ({@code memory.stat
 * total_rss}) follows its steps up and down, and its CPU time stops while its group is frozen.
 */
class MemoryWorkloadOnRealCgroupsTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);
  /** The allocator works in whole MiB and the JVM's own anonymous memory wobbles a little. */
  private static final long TOLERANCE_MB = 3;

  private CgroupSandbox sandbox;

  @BeforeEach
  void open() throws IOException {
    assumeTrue(Files.isDirectory(CgroupConfig.DEFAULT_ROOT.resolve("memory")),
        "no cgroup v1 memory hierarchy under " + CgroupConfig.DEFAULT_ROOT + " on this machine");
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
  }

  @AfterEach
  void close() throws Exception {
    if (sandbox != null) {
      sandbox.close();
    }
  }

  @Test
  void memoryStatRssFollowsTheTargetsReadFromStdinUpAndDown() throws Exception {
    TaskId task = sandbox.group("stepper");
    Process allocator = sandbox.spawn(task, Workload.stdinControlled(256));
    List<String> figures = new ArrayList<>();
    List<Long> targets = new ArrayList<>(List.of(64L, 96L, 128L, 160L, 192L, 160L, 128L, 96L, 64L, 192L, 64L));
    for (int cycle = 0; cycle < 10; cycle++) {
      targets.addAll(List.of(128L, 64L)); // the step that once left memory in a malloc arena
    }
    for (long targetMb : targets) {
      long start = System.nanoTime();
      send(allocator, targetMb);
      assertThat(Sandboxes.eventually(PATIENCE, () -> Math.abs(rssMb(task) - targetMb) <= TOLERANCE_MB))
          .as("memory.stat total_rss near %d MiB, was %.1f MiB", targetMb, rssMb(task)).isTrue();
      figures.add(String.format(Locale.ROOT, "%d→%.1f MiB in %d ms", targetMb, rssMb(task),
          (System.nanoTime() - start) / 1_000_000));
    }
    System.out.println("stepping allocator, target → memory.stat total_rss: " + String.join(", ", figures));
  }

  @Test
  void aScheduledAllocatorClimbsToItsPeakAndComesBackToNormal() throws Exception {
    TaskId task = sandbox.group("scheduled");
    MemorySchedule schedule = new MemorySchedule(48, 144, 32, Duration.ofMillis(500), Duration.ofMillis(500),
        Duration.ofSeconds(2), 1);
    sandbox.spawn(task, Workload.command(schedule));
    assertThat(Sandboxes.eventually(PATIENCE, () -> rssMb(task) >= 144 - TOLERANCE_MB))
        .as("the peak of 144 MiB in memory.stat, was %.1f MiB", rssMb(task)).isTrue();
    assertThat(Sandboxes.eventually(PATIENCE, () -> Math.abs(rssMb(task) - 48) <= TOLERANCE_MB))
        .as("back to 48 MiB, was %.1f MiB", rssMb(task)).isTrue();
  }

  @Test
  void itBurnsALittleCpuThatStopsWhileItsGroupIsFrozen() throws Exception {
    TaskId task = sandbox.group("frozen");
    Process allocator = sandbox.spawn(task, Workload.stdinControlled(64));
    send(allocator, 48);
    long first = cpuUsec(task);
    assertThat(Sandboxes.eventually(PATIENCE, () -> cpuUsec(task) > first + 50_000))
        .as("the allocator burns CPU while it runs").isTrue();

    TaskId peer = sandbox.group("peer");
    sandbox.busy(peer);
    assertThat(sandbox.cgroups().freeze(task, Duration.ofSeconds(5)).state()).isEqualTo(FreezerState.FROZEN);
    long frozenAt = cpuUsec(task);
    // Time passes while a busy peer burns 100 ms of CPU (what the allocator burns in a second): the wait is on it.
    long peerAt = cpuUsec(peer);
    assertThat(Sandboxes.eventually(PATIENCE, () -> cpuUsec(peer) >= peerAt + 100_000)).isTrue();
    assertThat(cpuUsec(task)).isEqualTo(frozenAt);

    sandbox.cgroups().thaw(task, Duration.ofSeconds(5));
    assertThat(Sandboxes.eventually(PATIENCE, () -> cpuUsec(task) > frozenAt)).as("burning again after the thaw").isTrue();
  }

  private static void send(Process allocator, long targetMb) throws IOException {
    OutputStream in = allocator.getOutputStream();
    in.write((targetMb + "\n").getBytes(StandardCharsets.US_ASCII));
    in.flush();
  }

  private double rssMb(TaskId task) {
    try {
      for (String line : sandbox.read("memory", task, "memory.stat").split("\n")) {
        if (line.startsWith("total_rss ")) {
          return Long.parseLong(line.substring("total_rss ".length()).trim()) / (double) (1 << 20);
        }
      }
      throw new IllegalStateException("no total_rss in memory.stat of " + task);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private long cpuUsec(TaskId task) {
    try {
      return Long.parseLong(sandbox.read("cpuacct", task, "cpuacct.usage")) / 1000;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
