package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.streams.engine.cpu.CpuReading;
import io.quotaflow.streams.engine.cpu.JobCpuMonitor;
import io.quotaflow.streams.engine.cpu.MonitorSettings;
import io.quotaflow.streams.engine.cpu.MonitorState;
import io.quotaflow.streams.engine.cpu.MonitorStep;
import io.quotaflow.streams.topology.ClusterConfigValidator;
import io.quotaflow.streams.topology.RecordChecks;
import io.quotaflow.streams.topology.SpecSettings;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.streams.engine.pools.IntegralPools;
import io.quotaflow.streams.engine.pools.PoolClusterSettings;
import io.quotaflow.streams.engine.pools.PoolLoad;
import io.quotaflow.streams.engine.pools.PoolSpec;
import io.quotaflow.streams.engine.pools.PoolAttributes;
import io.quotaflow.streams.engine.pools.PoolVolumeState;
import io.quotaflow.streams.engine.pools.PoolsPeriod;
import io.quotaflow.streams.engine.pools.PoolsUpdate;
import io.quotaflow.streams.topology.PoolRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The demo's specs are valid and make the monitor do, within a minute, what the README says it does. */
class DemoSpecsTest {

  private static final double HARD_CPU = 1.0;

  @Test
  void everySpecAndTheClusterConfigAreValid() {
    for (DemoTask task : DemoTask.ALL) {
      assertThat(RecordChecks.specProblems(DemoSpecs.spec("vm", task, 0))).as(task.name()).isEmpty();
      assertThat(DemoSpecs.spec("vm", task, 0).getJobCpuMonitor().getEnableCpuReclaim()).isTrue();
    }
    assertThat(ClusterConfigValidator.problems(DemoSpecs.cluster(Enforcement.ON))).isEmpty();
    assertThat(DemoSpecs.cluster(Enforcement.DRY_RUN).getEnforcement()).isEqualTo(Enforcement.DRY_RUN);
  }

  @Test
  void theAllocatorsDeclareTheirScheduleAndTheClusterGatesWithOneSlot() {
    List<DemoTask> allocators = DemoTask.ALL.stream().filter(t -> t.memory() != null).toList();
    assertThat(allocators).extracting(DemoTask::name).containsExactly("demo-peak-a", "demo-peak-b", "demo-peak-c");
    for (DemoTask task : allocators) {
      assertThat(DemoSpecs.spec("vm", task, 0).getMemoryNormalBytes()).isEqualTo(64L << 20);
      assertThat(DemoSpecs.spec("vm", task, 0).getMemoryPeakBytes()).isEqualTo(160L << 20);
      assertThat(DemoSpecs.spec("vm", task, 0).getOperation()).isEqualTo("demo-peaks");
      assertThat(task.memory().targetMbAt(task.memory().rest().toMillis()))
          .as("the first step already crosses 1.1 × normal").isGreaterThan((long) (1.1 * 64));
    }
    assertThat(DemoSpecs.spec("vm", DemoTask.ALL.get(0), 0).getMemoryNormalBytes()).as("CPU tasks are never gated").isNull();
    assertThat(DemoSpecs.cluster(Enforcement.ON).getMaxConcurrentPeaks()).isEqualTo(1);
    assertThat(DemoSpecs.cluster(Enforcement.ON).getPeakGatingMode()).isEqualTo(PeakGatingMode.COUNT);
  }

  @Test
  void theSecondAndThirdClimbStartWhileTheFirstStillHoldsItsPeak() {
    MemorySchedule first = DemoTask.ALL.get(4).memory();
    long firstFallsBackMs = first.cycleMs(); // back at normal by the end of its first cycle
    for (DemoTask later : DemoTask.ALL.subList(5, 7)) {
      assertThat(later.memory().rest().toMillis()).isBetween(first.rest().toMillis() + 1, firstFallsBackMs - 1000);
    }
  }

  @Test
  void anIdleTaskStepsDownFromAboutFiveSecondsAndReachesTheFloorWithinForty() {
    List<Double> soft = softLimitsPerSecond(0.0, 60);
    int firstDecrease = firstIndexBelow(soft, HARD_CPU);
    assertThat(firstDecrease).isBetween(3, 8);
    assertThat(soft.get(firstDecrease)).isEqualTo(0.8);
    assertThat(firstIndexBelow(soft, 0.1 - 1e-9)).as("never below the floor").isEqualTo(-1);
    assertThat(soft.get(40)).isEqualTo(0.1);
  }

  @Test
  void aTaskBurningItsWholeCoreKeepsItsSoftLimit() {
    assertThat(softLimitsPerSecond(1.0, 60)).allMatch(s -> s == HARD_CPU);
  }

  @Test
  void thePoolsAreValidAndTheirTasksAskForMoreThanTheCluster() {
    for (PoolConfig pool : DemoSpecs.pools()) {
      assertThat(RecordChecks.poolProblems(pool.getPool(), pool)).as(pool.getPool()).isEmpty();
    }
    assertThat(DemoTask.ALL).extracting(DemoTask::pool).containsOnly(DemoSpecs.BURST_POOL, DemoSpecs.RELAXED_POOL);
    assertThat(DemoTask.ALL.stream().filter(t -> t.pool().equals(DemoSpecs.BURST_POOL)).map(DemoTask::name))
        .containsExactly("demo-bursty");
    assertThat(DemoSpecs.spec("vm", DemoTask.ALL.get(2), 0).getPool()).isEqualTo(DemoSpecs.BURST_POOL);
    Story story = Story.run(180);
    for (int s = 0; s < 180; s++) {
      assertThat(story.demandCpu(s)).as("demand at %d s", s).isGreaterThan(DemoSpecs.TOTAL_CPU);
    }
  }

  @Test
  void theBurstPoolSavesWhileItsTaskIdlesThenGivesItItsCoreWhileTheRelaxedPoolIsCapped() {
    Story story = Story.run(120);
    String burst = DemoSpecs.BURST_POOL;
    String relaxed = DemoSpecs.RELAXED_POOL;
    // The idle spell (0-60 s): the bursty task reports less than the flow, so the volume grows, and the
    // relaxed pool gets nearly all it asks for.
    assertThat(story.state(59, burst).accumulatedResourceVolumeCpu()).isGreaterThan(15.0)
        .isGreaterThan(story.state(30, burst).accumulatedResourceVolumeCpu() + 5);
    assertThat(story.cap(50, relaxed)).isGreaterThan(0.9);
    // The burst (60-120 s): while the volume buys it, the burst pool's fair share is the task's whole
    // core and the relaxed pool is capped to a third of what it reports ...
    List<Integer> wholeCore = new ArrayList<>();
    for (int s = 60; s < 120; s++) {
      if (story.state(s, burst).fairShareCpu() >= 0.99) {
        wholeCore.add(s);
        assertThat(story.cap(s, relaxed)).as("relaxed cap at %d s", s).isLessThan(0.4);
      }
    }
    assertThat(wholeCore).hasSizeGreaterThanOrEqualTo(15);
    // ... then the volume runs low and the burst pool tapers toward its flow, handing CPU back.
    assertThat(story.state(119, burst).accumulatedResourceVolumeCpu())
        .isLessThan(DemoSpecs.SMOOTH_PERIOD_S * 1.0);
    assertThat(story.state(119, burst).fairShareCpu()).isBetween(DemoSpecs.BURST_FLOW_CPU, 0.85);
    assertThat(story.cap(119, relaxed)).isGreaterThan(story.cap(wholeCore.get(0), relaxed) + 0.1);
  }

  /**
   * The demo's pools over {@code seconds} of one-second periods, run by the real engines: each task's
   * soft limit from the CPU monitor on what its workload burns (the busy task a core, the idle and the
   * zero-CPU ones nothing that counts, the allocators a tenth, the bursty one its spells), each pool's
   * demand the sum of its tasks' soft limits, and one {@link IntegralPools} update a second.
   */
  private record Story(List<PoolsUpdate> updates) {

    static Story run(int seconds) {
      List<List<Double>> soft = new ArrayList<>();
      for (DemoTask task : DemoTask.ALL) {
        soft.add(softLimitsPerSecond(t -> task.ncpus() == 0 ? 0.0 : task.shape().demandCores(t * 1000L), task.ncpus(),
            seconds));
      }
      ClusterConfig cluster = DemoSpecs.cluster(Enforcement.ON);
      PoolClusterSettings settings = PoolRecords.settings(cluster, 0);
      List<PoolSpec> pools = DemoSpecs.pools().stream().map(PoolRecords::spec).toList();
      IntegralPools engine = new IntegralPools();
      Map<String, PoolVolumeState> volumes = Map.of();
      List<PoolsUpdate> updates = new ArrayList<>();
      for (int s = 0; s < seconds; s++) {
        Map<String, Double> demand = new TreeMap<>();
        for (int i = 0; i < DemoTask.ALL.size(); i++) {
          demand.merge(DemoTask.ALL.get(i).pool(), soft.get(i).get(s), Double::sum);
        }
        Map<String, PoolLoad> loads = new TreeMap<>();
        demand.forEach((pool, cpu) -> loads.put(pool, PoolLoad.ofDemand(cpu)));
        PoolsUpdate update = engine.update(new PoolsPeriod(s * 1000L, settings, pools, loads, volumes));
        volumes = update.volumes();
        updates.add(update);
      }
      return new Story(updates);
    }

    PoolAttributes state(int second, String pool) {
      return updates.get(second).state(pool);
    }

    double cap(int second, String pool) {
      return updates.get(second).capRatioByPool().get(pool);
    }

    double demandCpu(int second) {
      return updates.get(second).states().stream().mapToDouble(PoolAttributes::demandCpu).sum();
    }
  }

  /** The soft limit after each of {@code seconds} samples one second apart, burning {@code cores}. */
  private static List<Double> softLimitsPerSecond(double cores, int seconds) {
    return softLimitsPerSecond(t -> cores, HARD_CPU, seconds);
  }

  /** The soft limit after each of {@code seconds} samples one second apart, burning {@code coresAt} (second → cores). */
  private static List<Double> softLimitsPerSecond(IntToDoubleFunction coresAt, double hardCpu, int seconds) {
    JobCpuMonitor monitor = new JobCpuMonitor();
    MonitorSettings settings = SpecSettings.monitor(DemoSpecs.monitor());
    MonitorState state = MonitorState.initial(hardCpu);
    List<Double> soft = new ArrayList<>();
    double burntCpuSeconds = 0;
    for (int s = 0; s < seconds; s++) {
      burntCpuSeconds += s == 0 ? 0 : coresAt.applyAsDouble(s - 1);
      MonitorStep step = monitor.step(state, settings, hardCpu, new CpuReading(s * 1000L, Math.round(burntCpuSeconds * 1e6)));
      state = step.state();
      soft.add(state.softLimitCpu());
    }
    return soft;
  }

  private static int firstIndexBelow(List<Double> values, double limit) {
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i) < limit) {
        return i;
      }
    }
    return -1;
  }
}
