package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PeriodsTest {

  @Test
  void readsTheShortFormsAndIso() {
    assertThat(Periods.parse("1s")).isEqualTo(Duration.ofSeconds(1));
    assertThat(Periods.parse(" 500ms ")).isEqualTo(Duration.ofMillis(500));
    assertThat(Periods.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Periods.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Periods.parse("PT0.25S")).isEqualTo(Duration.ofMillis(250));
    assertThatThrownBy(() -> Periods.parse("soon")).hasMessageContaining("not a duration: 'soon'");
  }

  @Test
  void aBareNumberIsSeconds() {
    assertThat(Periods.parse("90")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Periods.parse(" 0 ")).isZero();
    assertThatThrownBy(() -> Periods.parse("-5")).hasMessageContaining("not a duration: '-5'");
    assertThatThrownBy(() -> Periods.parse("1.5")).hasMessageContaining("not a duration: '1.5'");
  }

  @Test
  void formatsWhatItReads() {
    for (String text : new String[] {"1s", "250ms", "1m", "90s"}) {
      assertThat(Periods.format(Periods.parse(text))).isEqualTo(text);
    }
  }
}
