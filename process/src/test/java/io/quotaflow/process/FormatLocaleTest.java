package io.quotaflow.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FormatLocaleTest {

  private Locale format;
  private Locale display;

  @BeforeEach
  void keepTheJvmsLocales() {
    format = Locale.getDefault(Locale.Category.FORMAT);
    display = Locale.getDefault(Locale.Category.DISPLAY);
  }

  @AfterEach
  void restoreThem() {
    Locale.setDefault(Locale.Category.FORMAT, format);
    Locale.setDefault(Locale.Category.DISPLAY, display);
  }

  /** {@code en} is what LANG=C.UTF-8 gives; {@code de-DE} groups digits with dots. */
  @ParameterizedTest
  @ValueSource(strings = {"en", "de-DE"})
  void numbersAreFormattedAsInTheUsWhateverTheMachinesLocale(String machine) {
    Locale.setDefault(Locale.Category.FORMAT, Locale.forLanguageTag(machine));
    Locale.setDefault(Locale.Category.DISPLAY, Locale.forLanguageTag(machine));

    FormatLocale.pin();

    assertThat(Locale.getDefault(Locale.Category.FORMAT)).isEqualTo(Locale.US);
    assertThat(String.format("%,d and %.1f", 1_234_567, 0.5)).isEqualTo("1,234,567 and 0.5");
    assertThat(Locale.getDefault(Locale.Category.DISPLAY)).as("display names keep the machine's locale")
        .isEqualTo(Locale.forLanguageTag(machine));
  }
}
