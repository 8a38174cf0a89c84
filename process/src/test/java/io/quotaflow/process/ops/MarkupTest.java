package io.quotaflow.process.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MarkupTest {

  @Test
  void escapesEveryCharacterThatCouldOpenMarkupOrCloseAnAttribute() {
    assertThat(Markup.escape("<td a=\"x\" b='y'>&amp;</td>"))
        .isEqualTo("&lt;td a=&quot;x&quot; b=&#39;y&#39;&gt;&amp;amp;&lt;/td&gt;");
    assertThat(Markup.escape("demo-busy")).isEqualTo("demo-busy");
  }
}
