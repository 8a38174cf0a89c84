package io.quotaflow.cli.demo;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupException;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.TaskId;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the demo's tasks run: real cgroups with real workload processes when this machine lets
 * us create groups and attach processes, else a simulated tree played by {@link WorkloadSimulator}.
 * Either way the collector and enforcer get a {@link CgroupConfig} and do not know the difference.
 */
public sealed interface DemoCgroups extends AutoCloseable {

  /** Where the collector and enforcer find the task groups. */
  CgroupConfig config();

  /** One line saying which mode this is and where. */
  String modeLine();

  /** The workload processes by task (empty when simulated). */
  Map<String, Long> pids();

  /**
   * Stops every workload and removes every group (and tree) this created.
   *
   * @throws IOException naming what was left behind
   */
  @Override
  void close() throws IOException, InterruptedException;

  /**
   * Real cgroups under {@code real} unless {@code simulate}, or unless they cannot be used here, in
   * which case the reason goes into the simulated mode's line.
   */
  static DemoCgroups open(boolean simulate, CgroupConfig real, List<DemoTask> tasks) throws IOException {
    if (simulate) {
      return Simulated.start(tasks, "--simulate");
    }
    try {
      return Real.start(real, tasks);
    } catch (CgroupException e) {
      return Simulated.start(tasks, "cgroups not writable here: " + e.getMessage());
    }
  }

  /** The demo's tasks in real groups, each running its {@link Workload} in a JVM attached before it runs. */
  record Real(CgroupSandbox sandbox, Map<String, Long> pids) implements DemoCgroups {

    static Real start(CgroupConfig config, List<DemoTask> tasks) throws IOException {
      CgroupSandbox sandbox = CgroupSandbox.open(config);
      Map<String, Long> pids = new LinkedHashMap<>();
      try {
        if (!sandbox.cgroups().cpuSettingsSupported()) {
          throw new CgroupException("no cpu controller for the task groups in " + sandbox.cgroups().describe());
        }
        for (DemoTask task : tasks) {
          TaskId group = sandbox.group(task.name());
          pids.put(task.name(), sandbox.spawn(group, task.command()).pid());
        }
        return new Real(sandbox, java.util.Collections.unmodifiableMap(pids));
      } catch (IOException | RuntimeException e) {
        closeQuietly(sandbox, e);
        throw e;
      }
    }

    private static void closeQuietly(CgroupSandbox sandbox, Exception failure) {
      try {
        sandbox.close();
      } catch (IOException | RuntimeException e) {
        failure.addSuppressed(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure.addSuppressed(e);
      }
    }

    @Override
    public CgroupConfig config() {
      return sandbox.config();
    }

    @Override
    public String modeLine() {
      Cgroups cgroups = sandbox.cgroups();
      return "real cgroups: " + cgroups.describe();
    }

    @Override
    public void close() throws IOException, InterruptedException {
      sandbox.close();
    }
  }

  /** The demo's tasks as directories of a simulated v1 tree, their CPU played by {@link WorkloadSimulator}. */
  record Simulated(SimulatedCgroupTree tree, WorkloadSimulator simulator, String reason) implements DemoCgroups {

    static Simulated start(List<DemoTask> tasks, String reason) throws IOException {
      SimulatedCgroupTree tree = SimulatedCgroupTree.create();
      try {
        // As many CPUs as this machine has: the collector reports this machine's count in NodeStatus.
        return new Simulated(tree, WorkloadSimulator.start(tree, tasks, Runtime.getRuntime().availableProcessors()), reason);
      } catch (RuntimeException e) {
        tree.close();
        throw e;
      }
    }

    public Path root() {
      return tree.root();
    }

    @Override
    public CgroupConfig config() {
      return tree.config();
    }

    @Override
    public String modeLine() {
      return "simulated cgroup tree at " + tree.root() + " (" + reason + ")";
    }

    @Override
    public Map<String, Long> pids() {
      return Map.of();
    }

    @Override
    public void close() throws IOException, InterruptedException {
      simulator.close();
      tree.close();
    }
  }
}
