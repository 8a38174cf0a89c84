package io.quotaflow.testharness;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The provisioned Grafana dashboard (deploy/grafana) queries only metrics the components export:
 * every metric name in every panel's PromQL is a row of docs/operations.md's metric tables (which
 * the *MetricsDocTest of each module hold against a real /metrics) or a Kafka client metric that
 * section names. Grafana itself cannot be fetched here, so this is what checks the JSON.
 */
class GrafanaDashboardTest {
  private static final Path GRAFANA = Path.of(System.getProperty("quotaflow.deploy.dir", "../deploy")).resolve("grafana");
  private static final List<String> PROCESSES = List.of("every process", "collector", "streams", "enforcer");
  private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Set<String> PROMQL_WORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
      "offset", "bool", "and", "or", "unless", "inf", "nan");
  /** Series a histogram or summary family serves besides its own name. */
  private static final List<String> FAMILY_SUFFIXES = List.of("_bucket", "_count", "_sum");

  @Test
  void everyPanelQueriesOnlyMetricsTheDocsListAsExported() throws IOException {
    Set<String> exported = exportedNames();
    Map<String, Set<String>> unknownByPanel = new TreeMap<>();
    for (JsonNode panel : dashboard().path("panels")) {
      List<String> exprs = exprs(panel);
      assertThat(exprs).as("queries of panel \"%s\"", panel.path("title").asText()).isNotEmpty();
      for (String expr : exprs) {
        Set<String> names = metricNames(expr);
        assertThat(names).as("metric names in %s", expr).isNotEmpty();
        for (String name : names) {
          if (!exported.contains(familyOf(name, exported))) {
            unknownByPanel.computeIfAbsent(panel.path("title").asText(), k -> new LinkedHashSet<>()).add(name);
          }
        }
      }
    }
    assertThat(unknownByPanel).as("metrics no docs/operations.md table or Kafka family names, by panel").isEmpty();
  }

  @Test
  void thePanelsUseTheProvisionedDatasourceAndTheProviderReadsTheMountedFolder() throws IOException {
    String datasources = Files.readString(GRAFANA.resolve("provisioning/datasources/prometheus.yml"));
    assertThat(datasources).contains("uid: prometheus").contains("url: http://prometheus:9090");
    for (JsonNode panel : dashboard().path("panels")) {
      assertThat(panel.path("datasource").path("uid").asText()).as("datasource of \"%s\"", panel.path("title").asText())
          .isEqualTo("prometheus");
    }
    assertThat(Files.readString(GRAFANA.resolve("provisioning/dashboards/quotaflow.yml")))
        .contains("path: /var/lib/grafana/dashboards");
  }

  @Test
  void metricNamesAreFoundOutsideFunctionsLabelsRangesAndGroupings() {
    assertThat(metricNames("histogram_quantile(0.99, sum by (le, kind) (rate(quotaflow_enforcer_control_delay_seconds_bucket"
        + "{kind=\"FREEZE\"}[5m])))")).containsExactly("quotaflow_enforcer_control_delay_seconds_bucket");
    assertThat(metricNames("time() - max(quotaflow_streams_newest_sample_timestamp_seconds) > 2 and on() up"))
        .containsExactly("quotaflow_streams_newest_sample_timestamp_seconds", "up");
  }

  private static JsonNode dashboard() throws IOException {
    return new ObjectMapper().readTree(GRAFANA.resolve("dashboards/quotaflow.json").toFile());
  }

  private static List<String> exprs(JsonNode panel) {
    List<String> exprs = new ArrayList<>();
    panel.path("targets").forEach(target -> exprs.add(target.path("expr").asText()));
    return exprs;
  }

  /** Identifiers of a PromQL expression that name series: not functions, label names or values, ranges or keywords. */
  static Set<String> metricNames(String expr) {
    String bare = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"") // string literals
        .replaceAll("\\{[^}]*}", " ") // label matchers
        .replaceAll("\\[[^]]*]", " ") // ranges and subqueries
        .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " "); // label lists
    Set<String> names = new LinkedHashSet<>();
    Matcher m = IDENTIFIER.matcher(bare);
    while (m.find()) {
      String word = m.group();
      boolean isCall = bare.substring(m.end()).stripLeading().startsWith("(");
      boolean isNumberPart = m.start() > 0 && Character.isDigit(bare.charAt(m.start() - 1));
      if (!isCall && !isNumberPart && !PROMQL_WORDS.contains(word.toLowerCase(java.util.Locale.ROOT))) {
        names.add(word);
      }
    }
    return names;
  }

  /** The family a series belongs to: {@code x_bucket} is {@code x} where {@code x} is a documented family. */
  private static String familyOf(String series, Set<String> exported) {
    for (String suffix : FAMILY_SUFFIXES) {
      String family = series.endsWith(suffix) ? series.substring(0, series.length() - suffix.length()) : null;
      if (family != null && exported.contains(family)) {
        return family;
      }
    }
    return series;
  }

  /** Every row of the four tables, and the Kafka client metrics the "Metrics" section names in full. */
  private static Set<String> exportedNames() throws IOException {
    Set<String> names = new LinkedHashSet<>();
    PROCESSES.forEach(process -> names.addAll(MetricsTable.types(process).keySet()));
    String doc = Files.readString(MetricsTable.operationsDoc());
    int start = doc.indexOf("\n## Metrics\n");
    int end = doc.indexOf("\n## ", start + 1);
    Matcher kafka = Pattern.compile("`(kafka_[a-z0-9_]+)`").matcher(doc.substring(start, end < 0 ? doc.length() : end));
    while (kafka.find()) {
      names.add(kafka.group(1));
    }
    return names;
  }
}
