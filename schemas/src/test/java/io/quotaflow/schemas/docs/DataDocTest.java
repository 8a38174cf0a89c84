package io.quotaflow.schemas.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/data.md's field tables are generated from the schemas (by {@link FieldTables}); this test
 * fails when they differ, and rewrites them when run with {@code -Dquotaflow.regenerateDocs=true}.
 */
class DataDocTest {
  static final Path DOC = Path.of("../docs/data.md");
  static final String BEGIN = "<!-- field tables: generated from schemas/src/main/avro by DataDocTest; do not edit by hand -->\n";
  static final String END = "<!-- end of generated field tables -->\n";
  static final String REGENERATE = "./mvnw -B -o -q -pl schemas test -Dtest=DataDocTest -Dquotaflow.regenerateDocs=true";

  @Test
  void fieldTablesInDataMdAreTheSchemas() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int begin = doc.indexOf(BEGIN);
    int end = doc.indexOf(END);
    assertThat(begin).as("docs/data.md must hold the marker line " + BEGIN.strip()).isNotNegative();
    assertThat(end).as("docs/data.md must hold the marker line " + END.strip() + " after the first").isGreaterThan(begin);

    String generated = "\n" + tables();
    String current = doc.substring(begin + BEGIN.length(), end);
    if (Boolean.getBoolean("quotaflow.regenerateDocs") && !current.equals(generated)) {
      Files.writeString(DOC, doc.substring(0, begin + BEGIN.length()) + generated + doc.substring(end), StandardCharsets.UTF_8);
      current = generated;
    }
    assertThat(current)
        .as("docs/data.md's field tables differ from schemas/src/main/avro; regenerate them with\n  " + REGENERATE
            + "\nand commit docs/data.md")
        .isEqualTo(generated);
  }

  @Test
  void nestedRecordsAreFlattenedAndNullableDefaultsShown() {
    String tables = tables();
    assertThat(tables).contains("| `job_cpu_monitor.check_period_ms` | `long` | `1000` |");
    assertThat(tables).contains("| `cgroup.quota_us` | `long` |");
    assertThat(tables).contains("| `memory_anon_bytes` | `null` or `long` | `null` |");
    assertThat(tables).contains("### `samples`: `CgroupSample`");
    assertThat(tables).contains("Subject `quotaflow.samples-value`");
    // The streams app's internal topics are not the data teams' contract.
    assertThat(tables).doesNotContain("config-broadcast").doesNotContain("ConfigBroadcast");
  }

  private static String tables() {
    Topics topics = Topics.create(Topics.Settings.defaults(), new InMemorySchemaRegistryClient());
    return FieldTables.render(topics.all(), Topics.DEFAULT_PREFIX);
  }
}
