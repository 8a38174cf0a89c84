package io.quotaflow.embedded;

import io.quotaflow.schemas.registry.CompatibilityLevel;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import org.apache.avro.Schema;

/**
 * The registry logic of {@link InMemorySchemaRegistryClient} made durable by a
 * {@link KafkaSchemaStore}: rebuilt from the store topic on open, every change stored before it
 * takes effect. Writes are serialized here, so two requests registering the same schema at once get
 * one id; reads go straight to the in-memory state.
 */
final class DurableRegistry implements AutoCloseable {
  private final KafkaSchemaStore store;
  private final InMemorySchemaRegistryClient state;

  private DurableRegistry(KafkaSchemaStore store) {
    this.store = store;
    this.state = new InMemorySchemaRegistryClient(store);
  }

  static DurableRegistry open(RegistrySettings settings) {
    KafkaSchemaStore store = KafkaSchemaStore.open(settings);
    try {
      DurableRegistry registry = new DurableRegistry(store);
      store.catchUp(registry.state);
      return registry;
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** The current state, for reads. Never call its mutating methods: they would bypass the write lock. */
  InMemorySchemaRegistryClient reads() {
    return state;
  }

  synchronized int register(String subject, Schema schema) {
    store.catchUpIfUncertain(state);
    return state.register(subject, schema);
  }

  synchronized CompatibilityLevel updateCompatibility(String subjectOrNullForGlobal, CompatibilityLevel level) {
    store.catchUpIfUncertain(state);
    return state.updateCompatibility(subjectOrNullForGlobal, level);
  }

  @Override
  public void close() {
    store.close();
  }
}
