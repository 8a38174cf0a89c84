package io.quotaflow.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cli.replay.InputRecord.Kind;
import io.quotaflow.cli.replay.ReplayRun.Replayed;
import io.quotaflow.schemas.avro.CgroupCpuSettings;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The report's figures from hand-made recordings: each a sum anyone can do on paper. */
class ReportBuilderTest {

  private static final long S = 1000;

  /** Ten seconds of samples at one core, 1 GiB of memory, from t = 0. */
  private static List<InputRecord> inputs(String task, String pool) {
    List<InputRecord> records = new ArrayList<>();
    records.add(new InputRecord(Kind.TASK, 0, 0, 0, "n/" + task,
        TaskSpec.newBuilder().setNode("n").setTask(task).setNcpus(2).setPool(pool).build()));
    for (int s = 0; s <= 10; s++) {
      records.add(new InputRecord(Kind.SAMPLE, 0, s, s * S, "n/" + task, CgroupSample.newBuilder().setNode("n").setTask(task)
          .setTsMs(s * S).setCpuUsageUsec(s * 1_000_000L).setMemoryBytes((1L << 30) + s * (1L << 20)).setSeq(s).build()));
    }
    return records;
  }

  private static Timed<CpuDecision> cpu(String task, long ts, double effective, long quotaUs) {
    return new Timed<>("n/" + task, ts, CpuDecision.newBuilder().setNode("n").setTask(task).setTsMs(ts).setHardLimitCpu(2)
        .setSoftLimitCpu(effective).setEffectiveLimitCpu(effective).setReason("INITIAL").setApply(true)
        .setCgroup(CgroupCpuSettings.newBuilder().setShares(100).setWeight(4).setQuotaUs(quotaUs).setPeriodUs(100_000).build())
        .build());
  }

  private static Timed<FreezeDecision> freeze(String task, long ts, FreezeAction action) {
    return new Timed<>("n/" + task, ts, FreezeDecision.newBuilder().setNode("n").setTask(task).setTsMs(ts).setAction(action)
        .setReason("PEAK_SLOT_BUSY").build());
  }

  private static Recording recording(List<Timed<CpuDecision>> cpu, List<Timed<FreezeDecision>> freeze, Set<String> tasksBefore) {
    return new Recording(0, 0, 10 * S + 1, 1, List.of(), cpu, freeze, List.of(), tasksBefore, Set.of(), Set.of(), 0, 0);
  }

  private static Replayed replayed(List<Timed<CpuDecision>> cpu, List<Timed<FreezeDecision>> freeze, Set<String> cappedPools) {
    return new Replayed(cpu, freeze, List.of(), cappedPools, Set.of(), 12, 0, Set.of());
  }

  private static ReplayReport build(List<InputRecord> inputs, Recording recording, Replayed replayed) {
    return ReportBuilder.build(recording, new ReportBuilder.Inputs(inputs, 0, 0, 10 * S + 1), replayed, Overrides.NONE,
        new ReportBuilder.Context("b:9092", "q.", List.of(), List.of(), 0, 0), null);
  }

  @Test
  void reclaimedIsHardMinusEffectiveOverTimeAndOverLimitIsTheTimeUsageWasAboveIt() {
    ReplayReport report = build(inputs("t", "p"), recording(List.of(cpu("t", 0, 1.5, -1)), List.of(), Set.of()),
        replayed(List.of(cpu("t", 0, 0.5, -1)), List.of(), Set.of()));

    ReplayReport.TaskReport task = report.tasks().get(0);
    assertThat(task.reclaimedCpuSeconds()).isEqualTo(new ReplayReport.Pair(5.0, 15.0)); // (2 - 1.5) × 10 s, (2 - 0.5) × 10 s
    assertThat(task.overLimitSeconds()).isEqualTo(new ReplayReport.Pair(0.0, 10.0)); // 1 core against 1.5, against 0.5
    assertThat(task.usage()).hasSize(10).allSatisfy(p -> assertThat(p.value()).isEqualTo(1.0));
    assertThat(task.cpu().identical()).isFalse();
    assertThat(task.cpu().differingFields()).contains("soft_limit_cpu", "effective_limit_cpu");
  }

  @Test
  void aWeightlessTaskIsHeldToItsQuotaNotToItsZeroLimit() {
    ReplayReport report = build(inputs("z", "p"), recording(List.of(cpu("z", 0, 0, -1)), List.of(), Set.of()),
        replayed(List.of(cpu("z", 0, 0, 20_000)), List.of(), Set.of()));

    assertThat(report.tasks().get(0).overLimitSeconds()).isEqualTo(new ReplayReport.Pair(0.0, 10.0)); // no quota; 0.2 cores
  }

  @Test
  void frozenIntervalsRunFromFreezeToThawThroughRenewalsAndAnOpenOneToTheEnd() {
    List<Timed<FreezeDecision>> decisions = List.of(freeze("t", 2 * S, FreezeAction.FREEZE), freeze("t", 4 * S, FreezeAction.FREEZE),
        freeze("t", 6 * S, FreezeAction.THAW), freeze("t", 8 * S, FreezeAction.FREEZE));

    ReplayReport report = build(inputs("t", "p"), recording(List.of(), decisions, Set.of()), replayed(List.of(), List.of(), Set.of()));

    ReplayReport.NodeReport node = report.nodes().get(0);
    assertThat(node.recordedFrozen()).containsExactly(new ReplayReport.Interval("t", 2 * S, 6 * S),
        new ReplayReport.Interval("t", 8 * S, null));
    assertThat(node.frozenTaskSeconds()).isEqualTo(new ReplayReport.Pair(6.0, 0.0)); // 4 s, then 2 s to the last sample
    assertThat(node.peakMemoryBytes().recorded()).isEqualTo((1L << 30) + 10 * (1L << 20));
  }

  @Test
  void aTaskFrozenByTheReplayIsHeldAtItsMemoryWhenFrozen() {
    ReplayReport report = build(inputs("t", "p"), recording(List.of(), List.of(), Set.of()),
        replayed(List.of(), List.of(freeze("t", 5 * S, FreezeAction.FREEZE)), Set.of()));

    assertThat(report.nodes().get(0).peakMemoryBytes())
        .isEqualTo(new ReplayReport.Pair((1L << 30) + 10 * (1L << 20), (1L << 30) + 5 * (1L << 20)));
  }

  @Test
  void exactOnlyWhenTheWholeLifeIsReadAndNoInternalLoopCarriedTiming() {
    List<InputRecord> inputs = new ArrayList<>(inputs("a", "p"));
    inputs.addAll(inputs("b", "p"));
    inputs.addAll(inputs("c", "capped"));

    ReplayReport report = build(inputs, recording(List.of(), List.of(), Set.of("n/b")), replayed(List.of(), List.of(), Set.of("capped")));

    assertThat(report.tasks()).extracting(t -> t.exactness().exact()).containsExactly(true, false, false);
    assertThat(report.tasks().get(1).exactness().reason()).contains("it ran before the input read");
    assertThat(report.tasks().get(2).exactness().reason()).contains("its pool capped was capped");
    assertThat(report.summary().exactTasks()).isEqualTo(1);
  }
}
