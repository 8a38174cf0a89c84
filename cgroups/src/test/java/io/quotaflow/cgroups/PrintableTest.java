package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrintableTest {

  @Test
  void hostileNamesArePrintedBoundedAndEscaped() {
    assertThat(Printable.of("a\nb\"c")).isEqualTo("\"a\\u000ab\\u0022c\"");
    assertThat(Printable.of("a\\b")).isEqualTo("\"a\\u005cb\"");
    assertThat(Printable.of("y".repeat(100))).endsWith("... (100 chars)").hasSizeLessThan(90);
    assertThat(Printable.of(null)).isEqualTo("null");
  }
}
