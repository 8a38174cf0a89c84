package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.topology.ClusterConfigValidator;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code spec|pool|cluster set}: values checked before anything connects, {@code --dry-run}, the
 * field list in {@code --help}; and operator tools that never create a topic.
 */
@WithKafka
class SetCommandsTest {

  /** Nothing listens on port 1: a command that got as far as connecting would fail on that instead. */
  private static final List<String> UNREACHABLE = List.of("--bootstrap", "127.0.0.1:1", "--registry", "http://127.0.0.1:1");

  private static OperatorTool.Run offline(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new QuotaflowCli()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(UNREACHABLE);
    int code = QuotaflowCli.execute(line, all.toArray(String[]::new));
    return new OperatorTool.Run(code, out.toString(), err.toString());
  }

  private static void assertRefusedBeforeConnecting(OperatorTool.Run run, String command, String... said) {
    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.err().lines()).singleElement().asString()
        .startsWith("quotaflow " + command + ": invalid ")
        .contains(said)
        .doesNotContain("cannot reach", "127.0.0.1:1");
  }

  @Test
  void aBadValueOrUnknownFieldIsAUsageErrorNamingTheFieldBeforeAnythingConnects() {
    assertRefusedBeforeConnecting(offline("spec", "set", "n1/t1", "ncpus=1", "colour=blue"), "spec set",
        "field colour: no such field in TaskSpec", "ncpus");
    assertRefusedBeforeConnecting(offline("spec", "set", "n1/t1", "job_cpu_monitor.smoothing_factor=2"), "spec set",
        "job_cpu_monitor.smoothing_factor must be in [0, 1], was 2.0");
    assertRefusedBeforeConnecting(offline("pool", "set", "prod", "weight=heavy"), "pool set",
        "field weight: expected a number");
    assertRefusedBeforeConnecting(offline("pool", "set", "prod", "weight=0"), "pool set",
        "weight must be a finite number > 0");
    assertRefusedBeforeConnecting(offline("cluster", "set", "enforcement=MAYBE"), "cluster set",
        "field enforcement: expected one of [OFF, DRY_RUN, ON]");
    assertRefusedBeforeConnecting(offline("cluster", "set", "enforce_per_period_quota=yes"), "cluster set",
        "field enforce_per_period_quota: expected true or false");
    assertRefusedBeforeConnecting(offline("cluster", "set", "cfs_period_us=5"), "cluster set",
        "cfs_period_us must be in [1000, 1000000], was 5");
  }

  @Test
  void aBadKeyOrAssignmentIsAUsageErrorToo() {
    OperatorTool.Run key = offline("spec", "set", "n1/../x", "ncpus=1");
    assertThat(key.exitCode()).isEqualTo(2);
    assertThat(key.err()).startsWith("quotaflow spec set: ").doesNotContain("cannot reach");
    OperatorTool.Run assignment = offline("pool", "set", "prod", "weight");
    assertThat(assignment.exitCode()).isEqualTo(2);
    assertThat(assignment.err().strip()).isEqualTo("quotaflow pool set: 'weight' is not FIELD=VALUE");
  }

  @Test
  void theCheckBeforeConnectingLeavesRulesBetweenFieldsToTheCurrentRecord() {
    // On the defaults (threshold 1.1) a release ratio of 1.5 breaks a rule between two fields; in force
    // the threshold may be 2, so only the check after reading the current config may refuse it.
    assertThatCode(() -> Records.precheck(JsonRecords.MAPPER.createObjectNode().put("cluster", "main"),
        List.of("peak_release_ratio=1.5"), ClusterConfig.class, "cluster config", ClusterConfigValidator::fieldProblems))
        .doesNotThrowAnyException();
    OperatorTool.Run dryRun = offline("cluster", "set", "--dry-run", "peak_release_ratio=1.5");
    assertThat(dryRun.exitCode()).isEqualTo(2);
    assertThat(dryRun.err()).contains("peak_release_ratio 1.5 is above peak_threshold_ratio 1.1");
  }

  @Test
  void dryRunPrintsTheRecordAndConnectsToNothing() throws Exception {
    OperatorTool.Run run = offline("pool", "set", "prod", "--dry-run", "guarantee_type=BURST", "resource_flow_cpu=1",
        "burst_guarantee_cpu=2");
    assertThat(run.exitCode()).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).startsWith("# --dry-run: nothing was sent");
    assertThat(lines.get(1)).startsWith("prod {");
    PoolConfig printed = JsonRecords.fromJson(JsonRecords.MAPPER.readTree(lines.get(1).substring("prod ".length())),
        PoolConfig.class);
    assertThat(printed.getPool()).isEqualTo("prod");
    assertThat(printed.getBurstGuaranteeCpu()).isEqualTo(2.0);
    assertThat(printed.getWeight()).isEqualTo(1.0);
  }

  @Test
  void dryRunPublishesNothing(KafkaEnv kafka) {
    String prefix = TestTopics.uniquePrefix("dry");
    OperatorTool tool = new OperatorTool(kafka, prefix, 3).withTopics();
    Topics topics = Topics.create(new Topics.Settings(prefix, 3, true), kafka.registryClient());

    OperatorTool.Run spec = tool.capture("spec", "set", "n1/t1", "--dry-run", "ncpus=2");
    OperatorTool.Run cluster = tool.capture("cluster", "set", "--dry-run", "enforcement=DRY_RUN");
    assertThat(spec.exitCode()).as(spec.err()).isZero();
    assertThat(spec.out()).contains("n1/t1 {\"node\":\"n1\",\"task\":\"t1\"");
    assertThat(cluster.exitCode()).as(cluster.err()).isZero();
    assertThat(cluster.out()).contains("main {\"cluster\":\"main\",\"enforcement\":\"DRY_RUN\"");

    ConfigTopics io = new ConfigTopics(Map.of("bootstrap.servers", kafka.bootstrapServers()));
    assertThat(io.latest(topics.taskSpecs(), null)).isEmpty();
    assertThat(io.latest(topics.clusterConfig(), null)).isEmpty();
  }

  @Test
  void aToolWithAWrongTopicPrefixSaysSoAndCreatesNoTopic(KafkaEnv kafka) throws Exception {
    String prefix = TestTopics.uniquePrefix("wrong");
    OperatorTool tool = new OperatorTool(kafka, prefix, 3);
    for (List<String> args : List.of(List.of("pool", "show"), List.of("spec", "show"), List.of("cluster", "show"),
        List.of("profile", "show"), List.of("pool", "set", "prod", "weight=2"), List.of("spec", "set", "n1/t1", "ncpus=1"),
        List.of("cluster", "set", "enforcement=OFF"))) {
      OperatorTool.Run run = tool.capture(args.toArray(String[]::new));
      String command = "quotaflow " + args.get(0) + " " + args.get(1);
      assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(1);
      assertThat(run.err().lines()).singleElement().asString()
          .matches(java.util.regex.Pattern.quote(command + ": no topic " + prefix) + "[a-z-]+"
              + java.util.regex.Pattern.quote(" on " + kafka.bootstrapServers()
                  + "; is --topic-prefix right? (topics are created by quotaflow streams)"));
    }
    OperatorTool.Run pools = tool.capture("pool", "show");
    assertThat(pools.err()).contains("no topic " + prefix + "pool-config");
    try (Admin admin = kafka.admin()) {
      Set<String> created = admin.listTopics().names().get().stream().filter(name -> name.startsWith(prefix))
          .collect(Collectors.toSet());
      assertThat(created).as("topics of the wrong prefix").isEmpty();
    }
  }

  @Test
  void setHelpListsEveryFieldOfTheSchemaWithItsTypeAndDefault() {
    Map<String, Schema> schemas = Map.of("spec", TaskSpec.getClassSchema(), "pool", PoolConfig.getClassSchema(),
        "cluster", ClusterConfig.getClassSchema());
    schemas.forEach((tool, schema) -> {
      OperatorTool.Run help = offline(tool, "set", "--help");
      assertThat(help.exitCode()).isZero();
      List<String> fields = new ArrayList<>();
      names(schema, "", fields);
      assertThat(fields).isNotEmpty();
      for (String field : fields) {
        assertThat(help.out()).as("%s set --help", tool).containsPattern("(?m)^  " + java.util.regex.Pattern.quote(field) + " ");
      }
    });
    String pool = offline("pool", "set", "--help").out();
    assertThat(pool).containsPattern("guarantee_type +NONE\\|BURST\\|RELAXED, default NONE")
        .containsPattern("limit_cpu +number or null, default null")
        .containsPattern("pool +string, from POOL");
    assertThat(offline("spec", "set", "--help").out()).containsPattern("ncpus +number, required")
        .containsPattern("job_cpu_monitor.vote_window_size +integer, default 5");
  }

  /** The schema's field names as {@code set} takes them: nested records by dotted name. */
  private static void names(Schema record, String prefix, List<String> into) {
    for (Schema.Field field : record.getFields()) {
      if (field.schema().getType() == Schema.Type.RECORD) {
        names(field.schema(), prefix + field.name() + ".", into);
      } else {
        into.add(prefix + field.name());
      }
    }
  }
}
