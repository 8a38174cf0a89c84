package io.quotaflow.streams.topology;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.quotaflow.process.KafkaRefusal;
import io.quotaflow.process.ops.Health;
import io.quotaflow.schemas.TopicAdmin;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the topology against a cluster: creates missing topics, refuses to start when co-partitioned
 * topics disagree on partition counts, pins every value subject to FULL_TRANSITIVE, starts Kafka
 * Streams with the config factory's settings, and reports metrics and health. {@code main}s only
 * parse flags and call this.
 */
public final class StreamsRunner implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StreamsRunner.class);

  /**
   * @param clientProperties Kafka client settings (bootstrap, SASL, TLS); also passed to Streams
   * @param streamsOverrides Kafka Streams settings that win over the factory's defaults
   * @param replicationFactor of created topics; empty: the broker's default
   */
  public record Settings(
      Map<String, Object> clientProperties,
      Map<String, Object> streamsOverrides,
      Topics.Settings topics,
      Optional<Short> replicationFactor) {}

  private final KafkaStreams streams;
  private final KafkaStreamsMetrics streamsMetrics;
  private final Topics topics;
  private final MeteredProbe probe;
  private final Optional<HostInfo> applicationServer;
  private final AtomicReference<Throwable> refusal;

  private StreamsRunner(KafkaStreams streams, KafkaStreamsMetrics streamsMetrics, Topics topics, MeteredProbe probe,
      Optional<HostInfo> applicationServer, AtomicReference<Throwable> refusal) {
    this.refusal = refusal;
    this.streams = streams;
    this.streamsMetrics = streamsMetrics;
    this.topics = topics;
    this.probe = probe;
    this.applicationServer = applicationServer;
  }

  public static StreamsRunner start(Settings settings, SchemaRegistryClient registry, MeterRegistry meters) {
    Topics topics = Topics.create(settings.topics(), registry);
    try (Admin admin = Admin.create(new HashMap<>(settings.clientProperties()))) {
      List<io.quotaflow.schemas.Topic<?, ?>> wanted = new ArrayList<>(topics.all());
      wanted.addAll(topics.internal());
      List<String> created = TopicAdmin.createMissing(admin, wanted, settings.replicationFactor());
      if (!created.isEmpty()) {
        LOG.info("Created topics {}", created);
      }
      List<String> problems = TopicAdmin.partitionCountProblems(admin, topics.coPartitioned());
      if (!problems.isEmpty()) {
        throw new IllegalStateException(String.join("; ", problems));
      }
    }
    topics.registerSchemas(registry);

    Map<String, Object> overrides = new HashMap<>(settings.clientProperties());
    overrides.putAll(settings.streamsOverrides());
    String bootstrap = String.valueOf(settings.clientProperties().get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG));
    Properties config = StreamsConfigFactory.create(bootstrap, topics.dlq().name(), overrides);

    MeteredProbe probe = new MeteredProbe(meters);
    KafkaStreams streams = new KafkaStreams(QuotaflowTopology.build(topics, probe), config);
    // A failed thread (a registry outage, a broker hiccup past the retries) is replaced and resumes
    // from the last commit; exactly-once makes the retry invisible downstream.
    io.micrometer.core.instrument.Counter replaced = io.micrometer.core.instrument.Counter
        .builder("quotaflow.streams.threads.replaced").description("Stream threads that failed and were replaced")
        .register(meters);
    // Except when the broker refused this principal (a missing ACL, a bad password): a new thread
    // would be refused the same way, forever, while the app looks alive. It stops and says so.
    AtomicReference<Throwable> refusal = new AtomicReference<>();
    streams.setUncaughtExceptionHandler(e -> {
      if (KafkaRefusal.isRefusal(e)) {
        refusal.compareAndSet(null, e);
        LOG.error("Stream thread refused by the broker; stopping: {}", KafkaRefusal.message(e, settings.clientProperties()));
        return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
      }
      replaced.increment();
      LOG.warn("Stream thread failed; replacing it: {}", e.toString());
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
    streamsMetrics.bindTo(meters);
    Object server = config.get(StreamsConfig.APPLICATION_SERVER_CONFIG);
    Optional<HostInfo> applicationServer = server == null || server.toString().isBlank()
        ? Optional.empty() : Optional.of(HostInfo.buildFromEndpoint(server.toString()));
    StreamsRunner runner = new StreamsRunner(streams, streamsMetrics, topics, probe, applicationServer, refusal);
    streams.start();
    return runner;
  }

  public Topics topics() {
    return topics;
  }

  /** The running app, for interactive queries of its stores ({@link LiveStores}). */
  public KafkaStreams kafkaStreams() {
    return streams;
  }

  /** The {@code application.server} this instance advertises to the others: where they forward live-state queries. */
  public Optional<HostInfo> applicationServer() {
    return applicationServer;
  }

  public KafkaStreams.State state() {
    return streams.state();
  }

  /** Waits until Kafka Streams is RUNNING; false when it did not get there in time. */
  public boolean awaitRunning(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (streams.state() != KafkaStreams.State.RUNNING) {
      if (System.nanoTime() > deadline || streams.state() == KafkaStreams.State.ERROR
          || streams.state() == KafkaStreams.State.NOT_RUNNING) {
        return false;
      }
      Thread.sleep(50);
    }
    return true;
  }

  /** Live unless Streams died; ready when RUNNING; stale by the wall-clock age of the newest sample handled. */
  /** Why the app stopped by itself: the broker refused it an operation a stream thread needs. */
  public Optional<Throwable> refusal() {
    return Optional.ofNullable(refusal.get());
  }

  public Health health() {
    KafkaStreams.State state = streams.state();
    long newest = probe.newestSampleTsMs();
    long staleness = newest < 0 ? -1 : System.currentTimeMillis() - newest;
    boolean live = state != KafkaStreams.State.ERROR && state != KafkaStreams.State.NOT_RUNNING;
    return new Health(live, state == KafkaStreams.State.RUNNING, staleness, state.name());
  }

  /**
   * Stops after the current commit (30 s at most) and leaves the group, so the other instances take
   * over this one's partitions at once instead of after the session timeout: decisions and live
   * state for those nodes pause for a rebalance, not for 45 s.
   */
  @Override
  public void close() {
    close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
        .withTimeout(Duration.ofSeconds(30)));
  }

  /** Stops within {@code timeout} and stays in the group, as a crashed instance would (tests use it as a kill). */
  public void close(Duration timeout) {
    close(CloseOptions.timeout(timeout));
  }

  private void close(CloseOptions options) {
    streams.close(options);
    streamsMetrics.close();
  }
}
