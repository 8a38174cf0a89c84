package io.quotaflow.streams.engine.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class UsageRecorderTest {

  private static final long IDLE_MS = 60_000;

  @Test
  void goneTaskHandsBackMeanAndMaxOfItsRunningSamples() {
    UsageRecorder recorder = new UsageRecorder();
    assertThat(recorder.record(MemorySample.running("t", 0, 400), "etl")).isEmpty();
    assertThat(recorder.record(MemorySample.running("t", 1, 1200), "etl")).isEmpty();
    assertThat(recorder.record(MemorySample.running("t", 2, 500), "etl")).isEmpty();
    assertThat(recorder.record(MemorySample.gone("t", 3), "etl"))
        .contains(new FinishedTaskUsage("etl", 700, 1200));
    assertThat(recorder.expireIdle(Long.MAX_VALUE, 0)).as("nothing kept of the finished task").isEmpty();
  }

  @Test
  void frozenSamplesTeachNothing() {
    UsageRecorder recorder = new UsageRecorder();
    recorder.record(MemorySample.running("t", 0, 400), "etl");
    recorder.record(new MemorySample("t", 1, 900, 900L, CgroupState.FROZEN), "etl");
    recorder.record(new MemorySample("t", 2, 900, 900L, CgroupState.FROZEN), "etl");
    recorder.record(MemorySample.running("t", 3, 600), "etl");
    assertThat(recorder.record(MemorySample.gone("t", 4), "etl")).contains(new FinishedTaskUsage("etl", 500, 600));
  }

  @Test
  void taskWithoutOperationOrSamplesTeachesNothing() {
    UsageRecorder recorder = new UsageRecorder();
    recorder.record(MemorySample.running("anon", 0, 400), "");
    assertThat(recorder.record(MemorySample.gone("anon", 1), "")).isEmpty();
    assertThat(recorder.record(MemorySample.gone("never-sampled", 1), "etl")).isEmpty();
  }

  @Test
  void silentTasksAreDroppedWithoutAProfile() {
    UsageRecorder recorder = new UsageRecorder();
    recorder.record(MemorySample.running("quiet", 0, 400), "etl");
    recorder.record(MemorySample.running("busy", 50_000, 400), "etl");
    assertThat(recorder.expireIdle(60_000, IDLE_MS)).containsExactly("quiet");
    assertThat(recorder.record(MemorySample.gone("quiet", 61_000), "etl")).isEmpty();
    assertThat(recorder.record(MemorySample.gone("busy", 61_000), "etl"))
        .contains(new FinishedTaskUsage("etl", 400, 400));
  }

  @Test
  void aTaskSteppedOnItsOwnStartsANewRunAfterItsIdleTimeout() {
    UsageRecorder.TaskStep first = UsageRecorder.step(null, MemorySample.running("t", 0, 400), "etl", IDLE_MS);
    UsageRecorder.TaskStep late = UsageRecorder.step(first.totals(), MemorySample.running("t", IDLE_MS, 800), "etl",
        IDLE_MS);
    assertThat(late.totals()).isEqualTo(new TaskUsageStats("etl", 1, 800, 800, IDLE_MS));
    assertThat(UsageRecorder.step(late.totals(), MemorySample.gone("t", IDLE_MS + 1), "etl", IDLE_MS).finished())
        .contains(new FinishedTaskUsage("etl", 800, 800));
  }

  /** What the gate processor does with one task's totals in its store against a recorder of the whole node. */
  @Property(tries = 300)
  void steppingEachTaskOnItsOwnAgreesWithARecorderOfAllTasks(@ForAll("walks") List<Step> walk) {
    UsageRecorder recorder = new UsageRecorder();
    Map<String, TaskUsageStats> perTask = new HashMap<>();
    long nowMs = 0;
    for (Step s : walk) {
      nowMs += s.advanceMs();
      MemorySample sample = switch (s.state()) {
        case GONE -> MemorySample.gone(s.task(), nowMs);
        case FROZEN -> new MemorySample(s.task(), nowMs, s.bytes(), s.bytes(), CgroupState.FROZEN);
        default -> MemorySample.running(s.task(), nowMs, s.bytes());
      };
      recorder.expireIdle(nowMs, IDLE_MS);
      Optional<FinishedTaskUsage> expected = recorder.record(sample, s.operation());
      UsageRecorder.TaskStep step = UsageRecorder.step(perTask.get(s.task()), sample, s.operation(), IDLE_MS);
      if (step.totals() == null) {
        perTask.remove(s.task());
      } else {
        perTask.put(s.task(), step.totals());
      }
      assertThat(step.finished()).isEqualTo(expected);
    }
    long end = nowMs;
    List<String> live = perTask.entrySet().stream()
        .filter(e -> end - e.getValue().lastSeenMs() < IDLE_MS).map(Map.Entry::getKey).toList();
    assertThat(recorder.expireIdle(end + IDLE_MS, IDLE_MS)).containsExactlyInAnyOrderElementsOf(live);
  }

  record Step(String task, CgroupState state, long bytes, String operation, long advanceMs) {}

  @Provide
  Arbitrary<List<Step>> walks() {
    Arbitrary<Step> step = Combinators.combine(
            Arbitraries.of("a", "b", "c"),
            Arbitraries.of(CgroupState.RUNNING, CgroupState.RUNNING, CgroupState.RUNNING, CgroupState.FROZEN,
                CgroupState.GONE),
            Arbitraries.longs().between(0, 4_000),
            Arbitraries.of("etl", "", "ml"),
            Arbitraries.longs().between(0, 40_000))
        .as(Step::new);
    return step.list().ofMaxSize(60);
  }
}
