package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.MemoryStatRefresh;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.testharness.KafkaWait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The sampling round on this node's real cgroups, without Kafka: rounds are driven by hand and
 * the clock is a counter, so what each round emits is exact. Our own groups under a unique
 * parent, removed afterwards; skipped where cgroups are not writable.
 */
class SamplerRealCgroupsTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  CgroupSandbox sandbox;
  final List<String> keys = new ArrayList<>();
  final List<CgroupSample> samples = new ArrayList<>();
  final AtomicLong clock = new AtomicLong(1_000);
  final CollectorMetrics metrics = new CollectorMetrics(new SimpleMeterRegistry());
  Sampler sampler;

  void open(CgroupLayout layout) throws Exception {
    sandbox = Sandboxes.openOrSkip(layout);
    sampler = new Sampler(sandbox.cgroups(), MemoryStatRefresh.EVERY_READ, new SampleBuilder("node-a"), clock::incrementAndGet, (key, sample) -> {
      keys.add(key);
      samples.add(sample);
    }, metrics);
  }

  @AfterEach
  void cleanUp() throws Exception {
    if (sampler != null) {
      sampler.close();
    }
    if (sandbox != null) {
      sandbox.close();
    }
  }

  List<CgroupSample> round() {
    int from = samples.size();
    sampler.round();
    return List.copyOf(samples.subList(from, samples.size()));
  }

  static List<String> tasks(List<CgroupSample> samples) {
    return samples.stream().map(CgroupSample::getTask).toList();
  }

  @ParameterizedTest
  @EnumSource(value = CgroupLayout.class, names = {"V1", "V2"})
  void everyGroupIsSampledEachRoundInTaskOrderWithConsecutiveSeq(CgroupLayout layout) throws Exception {
    open(layout);
    assertThat(round()).isEmpty(); // an empty parent
    sandbox.group("b-idle");
    sandbox.group("a-busy");
    assertThat(tasks(round())).containsExactly("a-busy", "b-idle");
    sandbox.group("c-late");
    List<CgroupSample> third = round();
    assertThat(tasks(third)).containsExactly("a-busy", "b-idle", "c-late");
    assertThat(samples).extracting(CgroupSample::getSeq).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(keys).containsExactly("node-a/a-busy", "node-a/b-idle", "node-a/a-busy", "node-a/b-idle", "node-a/c-late");
    assertThat(samples).allSatisfy(s -> {
      assertThat(s.getNode()).isEqualTo("node-a");
      assertThat(s.getState()).isEqualTo(SampleState.RUNNING);
    });
    // ts_ms is read per group, after its files: strictly increasing with this clock.
    assertThat(third).extracting(CgroupSample::getTsMs).isSorted().doesNotHaveDuplicates();
    assertThat(sampler.groups()).isEqualTo(3);
    assertThat(metrics.readErrors()).isZero();
  }

  @ParameterizedTest
  @EnumSource(value = CgroupLayout.class, names = {"V1", "V2"})
  void aBusyGroupsCounterGrowsAndAnIdleOnesBarelyMoves(CgroupLayout layout) throws Exception {
    open(layout);
    TaskId busy = sandbox.group("busy");
    TaskId idle = sandbox.group("idle");
    sandbox.busy(busy);
    sandbox.idle(idle);
    round();
    KafkaWait.until(PATIENCE, "the busy group to use 0.2 s of CPU", () -> {
      List<CgroupSample> now = round();
      return now.get(0).getCpuUsageUsec() >= 200_000;
    });
    List<CgroupSample> last = round();
    assertThat(last.get(0).getTask()).isEqualTo("busy");
    assertThat(last.get(1).getCpuUsageUsec()).as("idle CPU, µs").isLessThan(50_000);
    if (layout == CgroupLayout.V1) {
      // Pages stay charged where they were allocated: only what the idle shell's exec of sleep
      // allocated after the move is charged to its group (the busy loop allocates nothing).
      assertThat(last.get(1).getMemoryBytes()).isPositive();
      assertThat(last.get(1).getMemoryAnonBytes()).isNotNull();
      assertThat(last.get(1).getMemoryPeakBytes()).isGreaterThanOrEqualTo(last.get(1).getMemoryBytes());
    } else {
      assertThat(last.get(1).getMemoryAnonBytes()).as("no memory controller on this v2 tree").isNull();
    }
  }

  @ParameterizedTest
  @EnumSource(value = CgroupLayout.class, names = {"V1", "V2"})
  void aRemovedGroupGetsExactlyOneGoneSampleWithItsLastCounters(CgroupLayout layout) throws Exception {
    open(layout);
    TaskId doomed = sandbox.group("doomed");
    sandbox.group("stays");
    Process process = sandbox.busy(doomed);
    KafkaWait.until(PATIENCE, "the doomed group to use some CPU", () -> round().get(0).getCpuUsageUsec() > 20_000);
    CgroupSandbox.kill(process);
    List<CgroupSample> beforeRemoval = round();
    sandbox.remove(doomed);
    List<CgroupSample> afterRemoval = round();
    assertThat(afterRemoval).extracting(CgroupSample::getTask, CgroupSample::getState)
        .containsExactly(tuple("doomed", SampleState.GONE),
            tuple("stays", SampleState.RUNNING));
    CgroupSample gone = afterRemoval.get(0);
    assertThat(gone.getCpuUsageUsec()).isEqualTo(beforeRemoval.get(0).getCpuUsageUsec());
    assertThat(tasks(round())).containsExactly("stays");
    assertThat(metrics.goneSamples()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(value = CgroupLayout.class, names = {"V1", "V2"})
  void aGroupReplacedBetweenTwoRoundsIsSeenAlthoughTheCountDidNotMove(CgroupLayout layout) throws Exception {
    open(layout);
    TaskId first = sandbox.group("first");
    sandbox.group("other");
    assertThat(tasks(round())).containsExactly("first", "other");
    sandbox.remove(first);
    sandbox.group("second");
    assertThat(sandbox.cgroups().childGroupCount()).isEqualTo(2);
    // The read of "first" fails (ENODEV): GONE now, and the listing next round finds "second".
    assertThat(round()).extracting(CgroupSample::getTask, CgroupSample::getState)
        .containsExactly(tuple("first", SampleState.GONE),
            tuple("other", SampleState.RUNNING));
    assertThat(tasks(round())).containsExactly("other", "second");
  }

  @ParameterizedTest
  @EnumSource(value = CgroupLayout.class, names = {"V1", "V2"})
  void aFrozenGroupIsSampledAsFrozenAndRunningAgainWhenThawed(CgroupLayout layout) throws Exception {
    open(layout);
    TaskId task = sandbox.group("paused");
    sandbox.idle(task);
    assertThat(round().get(0).getState()).isEqualTo(SampleState.RUNNING);
    sandbox.cgroups().freeze(task, PATIENCE);
    assertThat(round().get(0).getState()).isEqualTo(SampleState.FROZEN);
    sandbox.cgroups().thaw(task, PATIENCE);
    assertThat(round().get(0).getState()).isEqualTo(SampleState.RUNNING);
  }
}
