package io.quotaflow.cli.reliability;

import io.quotaflow.cli.QuotaflowCli;
import io.quotaflow.schemas.GroupLag;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.TopicAdmin;
import io.quotaflow.schemas.Topics;
import io.quotaflow.testharness.ChildJvm;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;

/**
 * One streams app deployment under test: its topics (own prefix), application id, and its instances,
 * each {@code quotaflow streams} in its own JVM that the test can SIGKILL and start again.
 */
final class StreamsAppProcess {
  /**
   * The app's session timeout is Kafka's 45 s: a SIGKILLed instance keeps its partitions that long.
   * Tests lower it to the broker's minimum, and say so where they report a takeover time.
   */
  static final int SESSION_TIMEOUT_MS = 6_000;
  private static final Pattern STARTED = Pattern.compile("quotaflow streams: application \\S+ on .* on port (\\d+)");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  final KafkaEnv kafka;
  final String applicationId;
  final Topics topics;
  private final Path logs;

  /**
   * Creates the app's topics up front, as a deployment has them, so that input can be produced before it starts.
   *
   * @param samplesKeepProducerTime the samples topic keeps the producer's timestamps (the samples' ts_ms) instead of
   *     the broker's append time, so two apps fed the same records at different moments see the same record times
   */
  StreamsAppProcess(KafkaEnv kafka, String name, int partitions, boolean samplesKeepProducerTime, Path logs) {
    this.kafka = kafka;
    this.applicationId = name + "-app";
    this.topics = Topics.create(new Topics.Settings(name + ".", partitions, true), kafka.registryClient());
    this.logs = logs;
    List<Topic<?, ?>> all = new ArrayList<>(topics.all());
    all.addAll(topics.internal());
    if (samplesKeepProducerTime) {
      Topic<String, ?> samples = topics.samples();
      Map<String, String> configs = new HashMap<>(samples.configs());
      configs.put(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime");
      all.set(all.indexOf(samples), new Topic<>(samples.name(), samples.keySerde(), samples.valueSerde(), samples.partitions(),
          samples.nodePartitioned(), configs));
    }
    try (Admin admin = kafka.admin()) {
      TopicAdmin.createMissing(admin, all, Optional.empty());
    }
  }

  /**
   * Starts an instance on {@code stateDir} (without waiting for it to join): {@code quotaflow streams} with a 100 ms
   * commit interval, live state on a free port, the lowered session timeout, and {@code extraArgs}.
   */
  Instance start(String name, Path stateDir, List<String> extraArgs) throws IOException {
    List<String> args = new ArrayList<>(List.of("streams", "--bootstrap", kafka.bootstrapServers(), "--registry", kafka.registryUrl(),
        "--application-id", applicationId, "--topic-prefix", topics.settings().prefix(),
        "--partitions", Integer.toString(topics.settings().partitions()), "--state-dir", stateDir.toString(),
        "--http-host", "127.0.0.1", "--http-port", "0", "--commit-interval", "100ms",
        "--streams-config", "consumer.session.timeout.ms=" + SESSION_TIMEOUT_MS,
        "--streams-config", "consumer.heartbeat.interval.ms=1000"));
    args.addAll(extraArgs);
    return new Instance(ChildJvm.start(name, logs, QuotaflowCli.class.getName(), args, Map.of()), stateDir);
  }

  /** The app's input topics, the internal loops (learned profiles, pool partials, config broadcast) included. */
  List<String> inputTopics() {
    return List.of(topics.samples().name(), topics.taskSpecs().name(), topics.clusterConfig().name(),
        topics.configBroadcast().name(), topics.memoryUsage().name(), topics.poolPartials().name());
  }

  /** Input records the app has not committed yet, per partition (empty: it has processed everything written so far). */
  Map<TopicPartition, Long> lag() {
    try (Admin admin = kafka.admin()) {
      return GroupLag.of(admin, applicationId, inputTopics());
    }
  }

  void awaitCaughtUp(Duration timeout) {
    KafkaWait.consumerGroupCaughtUp(kafka, applicationId, inputTopics(), timeout);
  }

  /** Produces node-partitioned records, each with its own record timestamp, in the given order. */
  <V> void produce(Topic<String, V> topic, List<ProducerRecord<String, V>> records) {
    try (KafkaProducer<String, V> producer = producer(kafka, topic)) {
      records.forEach(producer::send);
      producer.flush();
    }
  }

  /** A producer that partitions by node, as every producer of Quotaflow's topics must. */
  static <V> KafkaProducer<String, V> producer(KafkaEnv kafka, Topic<String, V> topic) {
    Map<String, Object> props = new HashMap<>(kafka.clientConfig());
    props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    return new KafkaProducer<>(props, topic.keySerde().serializer(), topic.valueSerde().serializer());
  }

  /** One running instance. */
  final class Instance implements AutoCloseable {
    private final ChildJvm jvm;
    final Path stateDir;

    private Instance(ChildJvm jvm, Path stateDir) {
      this.jvm = jvm;
      this.stateDir = stateDir;
    }

    /** Waits until its Kafka Streams is RUNNING (its /health says ready): joined, assigned, restored. */
    void awaitReady() {
      URI health = URI.create("http://127.0.0.1:" + jvm.awaitOutput(STARTED, START_TIMEOUT).group(1) + "/health");
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      String[] last = {"nothing yet"};
      try {
        KafkaWait.until(START_TIMEOUT, "streams instance " + jvm.name() + " to be ready", () -> ready(http, health, last));
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "; last /health: " + last[0] + "\n" + jvm.tail(), e);
      }
    }

    /** Whether /health answers 200; what it answered goes to {@code last[0]}. */
    private static boolean ready(HttpClient http, URI health, String[] last) {
      try {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).build(),
            HttpResponse.BodyHandlers.ofString());
        last[0] = response.body();
        return response.statusCode() == 200;
      } catch (IOException e) {
        last[0] = e.toString();
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }

    /**
     * The Kafka Streams process id this instance's state directory holds: a restart on the same directory
     * takes it up again (the same transactional ids, which fence the killed instance's open transaction at once),
     * a restart on a wiped one makes a new one.
     */
    String processId() throws IOException {
      Path file = stateDir.resolve(applicationId).resolve("kafka-streams-process-metadata");
      Matcher id = Pattern.compile("\"processId\"\\s*:\\s*\"([0-9a-f-]+)\"").matcher(Files.readString(file, StandardCharsets.UTF_8));
      if (!id.find()) {
        throw new AssertionError("no process id in " + file + ": " + Files.readString(file, StandardCharsets.UTF_8));
      }
      return id.group(1);
    }

    /** SIGKILL: no commit, no leaving the group; the open transaction stays open. */
    void kill() {
      jvm.kill();
    }

    String name() {
      return jvm.name();
    }

    String tail() {
      return jvm.tail();
    }

    String output() {
      return jvm.output();
    }

    /** Kills it if it still runs. */
    @Override
    public void close() {
      jvm.close();
    }
  }
}
