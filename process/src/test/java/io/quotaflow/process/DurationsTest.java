package io.quotaflow.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DurationsTest {

  @Test
  void readsTheShortFormsAndIso() {
    assertThat(Durations.parse("1s")).isEqualTo(Duration.ofSeconds(1));
    assertThat(Durations.parse(" 500ms ")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("PT0.25S")).isEqualTo(Duration.ofMillis(250));
    assertThatThrownBy(() -> Durations.parse("soon")).hasMessageContaining("not a duration: 'soon'");
  }

  @Test
  void aBareNumberIsSeconds() {
    assertThat(Durations.parse("90")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Durations.parse(" 0 ")).isZero();
    assertThatThrownBy(() -> Durations.parse("-5")).hasMessageContaining("not a duration: '-5'");
    assertThatThrownBy(() -> Durations.parse("1.5")).hasMessageContaining("not a duration: '1.5'");
  }

  @Test
  void formatsWhatItReads() {
    for (String text : new String[] {"1s", "250ms", "1m", "90s"}) {
      assertThat(Durations.format(Durations.parse(text))).isEqualTo(text);
    }
  }

  @Test
  void theConvertersReadTheSameFormsAndRefuseWhatTheOptionCannotTake() {
    assertThat(new Durations.Converter().convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(new Durations.Positive().convert("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(new Durations.Converter().convert("0")).isZero();
    assertThatThrownBy(() -> new Durations.Positive().convert("0s"))
        .isInstanceOf(CommandLine.TypeConversionException.class).hasMessage("must be positive, was 0s");
    assertThatThrownBy(() -> new Durations.Converter().convert("PT-1S"))
        .isInstanceOf(CommandLine.TypeConversionException.class).hasMessage("must not be negative, was PT-1S");
    assertThatThrownBy(() -> new Durations.Converter().convert("soon"))
        .isInstanceOf(CommandLine.TypeConversionException.class).hasMessageContaining("not a duration: 'soon'");
  }
}
