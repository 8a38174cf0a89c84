package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.process.ops.Health;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.api.LiveStateApi;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code quotaflow pool show --streams-url}: the config on the topic next to the pool state the running app computed. */
@WithKafka
class PoolShowLiveStateTest {

  private record Run(int code, String out, String err) {}

  private static Run run(OperatorTool tool, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = new CommandLine(new QuotaflowCli());
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--bootstrap", tool.kafka().bootstrapServers(), "--registry", tool.kafka().registryUrl(),
        "--topic-prefix", tool.topicPrefix()));
    return new Run(QuotaflowCli.execute(commandLine, all.toArray(String[]::new)), out.toString(), err.toString());
  }

  private static int status(String url) {
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void poolShowPrintsTheLiveAttributesNextToTheConfig(KafkaEnv kafka, @TempDir Path stateDir) throws Exception {
    String prefix = TestTopics.uniquePrefix("poolshow");
    OperatorTool tool = new OperatorTool(kafka, prefix, 1).withTopics();
    tool.run("cluster", "set", "total_cpu=4");
    tool.run("pool", "set", "prod", "guarantee_type=BURST", "resource_flow_cpu=1", "burst_guarantee_cpu=2");
    tool.run("spec", "set", "n1/t1", "ncpus=1", "pool=prod");
    Topics topics = Topics.create(new Topics.Settings(prefix, 1, true), kafka.registryClient());

    try (OpsServer ops = OpsServer.start("127.0.0.1", 0, OpsServer.newRegistry("streams"), () -> new Health(true, true, -1, "TEST"))) {
      Map<String, Object> streams = new HashMap<>();
      streams.put(StreamsConfig.APPLICATION_ID_CONFIG, prefix + "app");
      streams.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
      streams.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + ops.port());
      try (StreamsRunner runner = StreamsRunner.start(new StreamsRunner.Settings(kafka.clientConfig(), streams, topics.settings(),
          Optional.empty()), kafka.registryClient(), OpsServer.newRegistry("streams"))) {
        LiveStateApi.serve(ops, runner);
        String url = "http://127.0.0.1:" + ops.port();
        // Pool periods close on stream time, which the samples' broker timestamps move on: sample until one is computed.
        try (KafkaProducer<String, CgroupSample> producer = new KafkaProducer<>(kafka.clientConfig(),
            topics.samples().keySerde().serializer(), topics.samples().valueSerde().serializer())) {
          long[] usageUsec = {0};
          KafkaWait.until(Duration.ofSeconds(90), "the streams app to compute a period of pool prod", () -> {
            usageUsec[0] += 10_000;
            producer.send(new ProducerRecord<>(topics.samples().name(), "n1/t1", CgroupSample.newBuilder().setNode("n1")
                .setTask("t1").setTsMs(System.currentTimeMillis()).setCpuUsageUsec(usageUsec[0]).setMemoryBytes(1 << 20)
                .setState(SampleState.RUNNING).setSeq(0).build()));
            producer.flush();
            return status(url + "/pools/prod") == 200;
          });
        }

        Run shown = run(tool, "pool", "show", "prod", "--streams-url", url);
        assertThat(shown.code()).as(shown.err()).isZero();
        assertThat(shown.out().lines()).hasSize(1);
        String line = shown.out().lines().findFirst().orElseThrow();
        assertThat(line).startsWith("prod {");
        JsonNode both = JsonRecords.MAPPER.readTree(line.substring("prod ".length()));
        assertThat(both.get("config").get("guarantee_type").asText()).isEqualTo("BURST");
        assertThat(both.get("config").get("burst_guarantee_cpu").asDouble()).isEqualTo(2.0);
        JsonNode live = both.get("live");
        assertThat(live.get("pool").asText()).isEqualTo("prod");
        assertThat(live.get("specified_burst_ratio").asDouble()).as("2 of the cluster's 4 cpus").isEqualTo(0.5);
        assertThat(live.get("specified_resource_flow_ratio").asDouble()).isEqualTo(0.25);
        assertThat(live.get("integral_pool_capacity").asDouble()).isEqualTo(0.25 * 86_400);
        assertThat(live.has("accumulated_resource_volume_cpu")).isTrue();

        Run plain = run(tool, "pool", "show", "prod");
        assertThat(plain.out().lines()).as("without --streams-url, the config alone as before")
            .containsExactly("prod " + both.get("config"));
      }
    }

    Run unreachable = run(tool, "pool", "show", "--streams-url", "http://127.0.0.1:1");
    assertThat(unreachable.code()).isEqualTo(1);
    assertThat(unreachable.err()).startsWith("quotaflow pool show: cannot reach the streams app at http://127.0.0.1:1");
  }
}
