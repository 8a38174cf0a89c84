package io.quotaflow.embedded;

import io.quotaflow.schemas.registry.CompatibilityLevel;
import io.quotaflow.schemas.registry.SchemaMetadata;

/** One change the registry keeps in its store topic: a schema version registered, or a level set. */
sealed interface StoreEntry {

  record SchemaRegistered(SchemaMetadata registration) implements StoreEntry {}

  /** @param subject the subject, or null for the global level */
  record CompatibilitySet(String subject, CompatibilityLevel level) implements StoreEntry {}
}
