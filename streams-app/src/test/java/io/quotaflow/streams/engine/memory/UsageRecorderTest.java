package io.quotaflow.streams.engine.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UsageRecorderTest {

  @Test
  void goneTaskHandsBackMeanAndMaxOfItsRunningSamples() {
    UsageRecorder recorder = new UsageRecorder();
    assertThat(recorder.record(MemorySample.running("t", 0, 400), "etl")).isEmpty();
    assertThat(recorder.record(MemorySample.running("t", 1, 1200), "etl")).isEmpty();
    assertThat(recorder.record(MemorySample.running("t", 2, 500), "etl")).isEmpty();
    assertThat(recorder.record(MemorySample.gone("t", 3), "etl"))
        .contains(new FinishedTaskUsage("etl", 700, 1200));
    assertThat(recorder.snapshot()).isEmpty();
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
    assertThat(recorder.expireIdle(60_000, 60_000)).containsExactly("quiet");
    assertThat(recorder.record(MemorySample.gone("quiet", 61_000), "etl")).isEmpty();
    UsageRecorder restored = UsageRecorder.restore(recorder.snapshot());
    assertThat(restored.record(MemorySample.gone("busy", 61_000), "etl"))
        .contains(new FinishedTaskUsage("etl", 400, 400));
  }
}
