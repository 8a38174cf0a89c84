package io.quotaflow.cli.demo;

import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.collector.Collector;
import io.quotaflow.collector.CollectorSettings;
import io.quotaflow.enforcer.Enforcer;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.streams.topology.StreamsRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The whole pipeline for one node in this JVM, against a broker and registry: the streams app,
 * the node's collector and its enforcer, each the production component started through its own
 * {@code start}. The demo runs it, and the end-to-end tests drive real processes through it.
 */
public final class NodeStack implements AutoCloseable {

  /**
   * @param clientProperties Kafka client settings (bootstrap and any SASL/TLS) for every component
   * @param topics topic names and partition count
   * @param node this node's id
   * @param cgroups where the node's task groups live
   * @param workDir the streams state directory and the enforcer's state file go under it
   * @param samplePeriod the collector's sampling period
   * @param commitInterval the streams app's commit interval: decisions become visible at each commit
   * @param reflexHz how often the enforcer's memory reflex reads its watched tasks; 0: no reflex
   */
  public record Settings(Map<String, Object> clientProperties, Topics.Settings topics, String node,
      CgroupConfig cgroups, Path workDir, Duration samplePeriod, Duration commitInterval, int reflexHz) {

    public Settings {
      clientProperties = Map.copyOf(clientProperties);
    }

    /** With the enforcer's default reflex. */
    public Settings(Map<String, Object> clientProperties, Topics.Settings topics, String node, CgroupConfig cgroups,
        Path workDir, Duration samplePeriod, Duration commitInterval) {
      this(clientProperties, topics, node, cgroups, workDir, samplePeriod, commitInterval,
          Enforcer.Settings.DEFAULT_REFLEX_HZ);
    }
  }

  private static final Duration STREAMS_START_TIMEOUT = Duration.ofSeconds(60);

  private final Settings settings;
  private final SchemaRegistryClient registry;
  private final MeterRegistry meters;
  private final StreamsRunner streams;
  private final Collector collector;
  private volatile Enforcer enforcer;

  private NodeStack(Settings settings, SchemaRegistryClient registry, MeterRegistry meters, StreamsRunner streams,
      Collector collector, Enforcer enforcer) {
    this.settings = settings;
    this.registry = registry;
    this.meters = meters;
    this.streams = streams;
    this.collector = collector;
    this.enforcer = enforcer;
  }

  /**
   * Starts the streams app (creating the topics), waits until it runs, then the collector and the
   * enforcer. Whatever started is closed again when a later part fails.
   */
  public static NodeStack start(Settings settings, SchemaRegistryClient registry, MeterRegistry meters)
      throws IOException, InterruptedException {
    Files.createDirectories(settings.workDir());
    Map<String, Object> overrides = new HashMap<>();
    // One application per topic set, so stacks on one broker with their own topics never share a group.
    overrides.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.topics().prefix() + "streams");
    overrides.put(StreamsConfig.STATE_DIR_CONFIG, settings.workDir().resolve("streams").toString());
    overrides.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, settings.commitInterval().toMillis());
    StreamsRunner streams = StreamsRunner.start(
        new StreamsRunner.Settings(settings.clientProperties(), overrides, settings.topics(), Optional.empty()),
        registry, meters);
    List<AutoCloseable> started = new ArrayList<>(List.of(streams));
    try {
      if (!streams.awaitRunning(STREAMS_START_TIMEOUT)) {
        throw new IllegalStateException("the streams app did not reach RUNNING within "
            + STREAMS_START_TIMEOUT.toSeconds() + " s (state " + streams.state() + ")");
      }
      Collector collector = Collector.start(
          CollectorSettings.defaults(settings.node(), settings.cgroups())
              .withPeriod(settings.samplePeriod())
              .withOps("127.0.0.1", 0),
          settings.clientProperties(), Topics.create(settings.topics(), registry));
      started.add(collector);
      Enforcer enforcer = startEnforcer(settings, registry, meters);
      return new NodeStack(settings, registry, meters, streams, collector, enforcer);
    } catch (IOException | InterruptedException | RuntimeException e) {
      Collections.reverse(started);
      closeAll(started, e);
      throw e;
    }
  }

  private static Enforcer startEnforcer(Settings settings, SchemaRegistryClient registry, MeterRegistry meters)
      throws IOException {
    return Enforcer.start(
        new Enforcer.Settings(settings.node(), false, settings.workDir().resolve("enforcer-state.json"),
            Enforcer.Settings.DEFAULT_LEASE_THAW_INTERVAL, Enforcer.Settings.DEFAULT_FREEZE_TIMEOUT,
            settings.clientProperties()).withReflex(settings.reflexHz(), Enforcer.Settings.DEFAULT_REFLEX_LEASE),
        Cgroups.open(settings.cgroups()), Topics.create(settings.topics(), registry), meters);
  }

  /** Stops the enforcer alone, as a node agent restart would; samples and decisions go on. */
  public void stopEnforcer() {
    enforcer.close();
  }

  /**
   * Stops the streams app alone, as a crashed or partitioned decision app would: samples go on, but
   * no decision is made or renewed, so the enforcer's freeze leases run out. {@link #close()} still
   * closes it (again, harmlessly).
   */
  public void stopStreams() {
    streams.close();
  }

  /** Starts a new enforcer on the same state file: it catches up on the decision topics and reconciles every group. */
  public Enforcer startEnforcer() throws IOException {
    enforcer = startEnforcer(settings, registry, meters);
    return enforcer;
  }

  public StreamsRunner streams() {
    return streams;
  }

  public Collector collector() {
    return collector;
  }

  public Enforcer enforcer() {
    return enforcer;
  }

  /** Stops sampling first, then enforcing, then the streams app after its last commit. */
  @Override
  public void close() {
    RuntimeException failure = new RuntimeException("closing the node stack failed");
    closeAll(List.of(collector, enforcer, streams), failure);
    if (failure.getSuppressed().length > 0) {
      throw failure;
    }
  }

  private static void closeAll(List<AutoCloseable> parts, Throwable failure) {
    for (AutoCloseable part : parts) {
      try {
        part.close();
      } catch (Exception e) {
        failure.addSuppressed(e);
      }
    }
  }
}
