package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.cgroups.CgroupParent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CollectorMainTest {

  @Test
  void flagsWinOverEnvironmentVariablesWhichWinOverDefaults() {
    Map<String, String> env = Map.of("QUOTAFLOW_NODE", "from-env", "QUOTAFLOW_PERIOD", "2s", "QUOTAFLOW_BOOTSTRAP", "k:9");
    Map<String, String> values = CollectorMain.parse(new String[] {"--node", "from-flag", "--layout=v2"}, env::get);
    assertThat(values).containsEntry("--node", "from-flag")
        .containsEntry("--period", "2s")
        .containsEntry("--bootstrap", "k:9")
        .containsEntry("--layout", "v2")
        .containsEntry("--cgroup-root", "/sys/fs/cgroup")
        .containsEntry("--buffer", "150000");
  }

  @Test
  void unknownOrIncompleteFlagsAreOneLineErrors() {
    assertThatThrownBy(() -> CollectorMain.parse(new String[] {"--nodes", "x"}, name -> null))
        .hasMessage("unknown option --nodes (try --help)");
    assertThatThrownBy(() -> CollectorMain.parse(new String[] {"--node"}, name -> null))
        .hasMessage("option --node needs a value");
  }

  @Test
  void aBadValueIsReportedBeforeAnythingStarts() {
    StringWriter err = new StringWriter();
    int code = CollectorMain.run(new String[] {"--node", "n1", "--period", "often"}, name -> null,
        new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).isEqualTo("quotaflow collector: not a duration: 'often' (write e.g. 1s, 500ms, 2m or PT1S)"
        + System.lineSeparator());
  }

  @Test
  void theParentIsANameUnderTheOwnGroupOrAnAbsolutePath() throws Exception {
    assertThat(CollectorFlags.parent("/batch/quotaflow")).isEqualTo(CgroupParent.at("/batch/quotaflow"));
    assertThat(CollectorFlags.parent("jobs")).isInstanceOf(CgroupParent.UnderOwnGroup.class)
        .extracting(p -> ((CgroupParent.UnderOwnGroup) p).name()).isEqualTo("jobs");
    assertThat(CollectorFlags.parent(null)).extracting(p -> ((CgroupParent.UnderOwnGroup) p).name())
        .isEqualTo(CgroupParent.DEFAULT_NAME);
    assertThatThrownBy(() -> CollectorFlags.parent("a/b")).hasMessageContaining("absolute path");
    assertThatThrownBy(() -> CollectorFlags.parent("..")).hasMessageContaining("safe path component");
  }
}
