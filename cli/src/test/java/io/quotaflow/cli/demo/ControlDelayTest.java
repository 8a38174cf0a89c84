package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ControlDelayTest {

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @Test
  void noTimerOrNothingRecordedGivesNoFigure() {
    assertThat(ControlDelay.freezeSummary(meters)).isEmpty();
    Timer.builder(ControlDelay.TIMER).tag("kind", "FREEZE").register(meters);
    assertThat(ControlDelay.freezeSummary(meters)).isEmpty();
  }

  @Test
  void publishedPercentilesAreShownAsTheyAre() {
    Timer timer = Timer.builder(ControlDelay.TIMER).tag("kind", "FREEZE").publishPercentiles(0.5, 0.99).register(meters);
    Timer.builder(ControlDelay.TIMER).tag("kind", "CPU").register(meters).record(Duration.ofSeconds(9));
    for (int i = 0; i < 100; i++) {
      timer.record(Duration.ofMillis(i < 90 ? 200 : 800));
    }
    assertThat(ControlDelay.freezeSummary(meters)).get().asString()
        .startsWith("sample → FREEZE applied p50 ").contains(", p99 ").doesNotContain("≤");
  }

  @Test
  void withOnlyHistogramBucketsEachPercentileIsTheBoundItFallsUnder() {
    Timer timer = Timer.builder(ControlDelay.TIMER).tag("kind", "FREEZE")
        .serviceLevelObjectives(Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1)).register(meters);
    for (int i = 0; i < 100; i++) {
      timer.record(Duration.ofMillis(i < 90 ? 200 : 800));
    }
    assertThat(ControlDelay.freezeSummary(meters)).contains("sample → FREEZE applied p50 ≤ 500 ms, p99 ≤ 1000 ms");
  }
}
