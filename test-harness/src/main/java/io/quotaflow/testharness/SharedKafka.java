package io.quotaflow.testharness;

import io.quotaflow.embedded.EmbeddedPair;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pair every test of one JVM shares, kept in JUnit's root store, which closes it when the
 * whole run ends: the embedded pair is closed, the container stopped and removed; an external pair
 * is only pointed at, never closed.
 */
final class SharedKafka implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedKafka.class);

  private final KafkaEnv env;
  /** What {@link #close} stops: the embedded pair, the container, or nothing for an external pair. */
  private final AutoCloseable owned;

  private SharedKafka(KafkaEnv env, AutoCloseable owned) {
    this.env = env;
    this.owned = owned;
  }

  static SharedKafka start(HarnessSource source) {
    if (source instanceof HarnessSource.External external) {
      LOG.info("Tests use the external Kafka at {} and registry at {}", external.bootstrapServers(), external.registryUrl());
      return new SharedKafka(new KafkaEnv(external.bootstrapServers(), external.registryUrl()), null);
    }
    if (source instanceof HarnessSource.Container wanted) {
      long started = System.nanoTime();
      BrokerContainer container = BrokerContainer.start(wanted.image());
      LOG.info("Tests use Kafka at {} and registry at {} in container {} of {} (started in {} ms)",
          container.env().bootstrapServers(), container.env().registryUrl(), container.containerId(), wanted.image(),
          (System.nanoTime() - started) / 1_000_000);
      return new SharedKafka(container.env(), container);
    }
    EmbeddedPair pair = EmbeddedPair.start();
    LOG.info("Tests use the embedded Kafka at {} (started in {} ms) and registry at {}", pair.bootstrapServers(),
        pair.kafka().startupTime().toMillis(), pair.registryUrl());
    return new SharedKafka(new KafkaEnv(pair.bootstrapServers(), pair.registryUrl()), pair);
  }

  KafkaEnv env() {
    return env;
  }

  @Override
  public void close() throws Exception {
    if (owned != null) {
      owned.close();
    }
  }
}
