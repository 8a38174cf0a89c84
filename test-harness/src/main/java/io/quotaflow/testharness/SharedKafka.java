package io.quotaflow.testharness;

import io.quotaflow.embedded.EmbeddedPair;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pair every test of one JVM shares, kept in JUnit's root store, which closes it when the
 * whole run ends. An external pair is only pointed at, never closed.
 */
final class SharedKafka implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedKafka.class);

  private final KafkaEnv env;
  private final EmbeddedPair embedded;

  private SharedKafka(KafkaEnv env, EmbeddedPair embedded) {
    this.env = env;
    this.embedded = embedded;
  }

  static SharedKafka start(HarnessSource source) {
    if (source instanceof HarnessSource.External external) {
      LOG.info("Tests use the external Kafka at {} and registry at {}", external.bootstrapServers(), external.registryUrl());
      return new SharedKafka(new KafkaEnv(external.bootstrapServers(), external.registryUrl()), null);
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
  public void close() {
    if (embedded != null) {
      embedded.close();
    }
  }
}
