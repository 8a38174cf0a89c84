package io.quotaflow.streams.simulate;

import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import io.quotaflow.streams.topology.QuotaflowTopology;
import io.quotaflow.streams.topology.StreamsConfigFactory;
import io.quotaflow.streams.topology.TopologyProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The real topology in Kafka Streams' {@link TopologyTestDriver}: one partition, an in-memory
 * registry, its own throwaway state directory. {@code simulate} and the topology tests both run on it.
 */
public final class OfflineDriver implements AutoCloseable {

  private final Topics topics;
  private final Path stateDir;
  private final TopologyTestDriver driver;

  public OfflineDriver(Instant start) {
    this(start, TopologyProbe.NONE);
  }

  /** The topology reporting to {@code probe}, as the running app's does to its meters. */
  public OfflineDriver(Instant start, TopologyProbe probe) {
    topics = Topics.create(new Topics.Settings(Topics.DEFAULT_PREFIX, 1, true), new InMemorySchemaRegistryClient());
    try {
      stateDir = Files.createTempDirectory("quotaflow-offline");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // Records are processed one at a time as they are piped: nothing to wait for on other partitions.
    Properties config = StreamsConfigFactory.create("offline:0", topics.dlq().name(), Map.of(
        StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, 0L,
        StreamsConfig.STATE_DIR_CONFIG, stateDir.toString(),
        StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-offline"));
    driver = new TopologyTestDriver(QuotaflowTopology.build(topics, probe), config, start);
  }

  public Topics topics() {
    return topics;
  }

  public TopologyTestDriver driver() {
    return driver;
  }

  public <K, V> TestInputTopic<K, V> input(Topic<K, V> topic) {
    return driver.createInputTopic(topic.name(), topic.keySerde().serializer(), topic.valueSerde().serializer());
  }

  public <K, V> TestOutputTopic<K, V> output(Topic<K, V> topic) {
    return driver.createOutputTopic(topic.name(), topic.keySerde().deserializer(), topic.valueSerde().deserializer());
  }

  @Override
  public void close() {
    driver.close();
    try (Stream<Path> files = Files.walk(stateDir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
