package io.quotaflow.schemas.registry;

import java.util.Collection;
import java.util.List;
import org.apache.avro.Schema;

/**
 * The subset of Confluent Schema Registry that Quotaflow uses, shaped like Confluent's
 * {@code SchemaRegistryClient} so that code written against it reads the same. Implementations:
 * {@link RestSchemaRegistryClient} (any Confluent-compatible server: Confluent, Karapace,
 * Apicurio's ccompat API, Quotaflow's embedded registry) and {@link InMemorySchemaRegistryClient}
 * (tests and offline {@code simulate}, like Confluent's {@code mock://}).
 *
 * <p>Errors: {@link SchemaRegistryException} and its subclasses for answers the registry gave;
 * {@link RegistryUnavailableException} (retriable) when it could not be reached.
 */
public interface SchemaRegistryClient {

  /** Registers {@code schema} under {@code subject} (idempotent) and returns its global id. */
  int register(String subject, Schema schema);

  /** The schema with this global id; ids are immutable, so implementations cache it forever. */
  Schema getSchemaById(int id);

  /** The id of {@code schema} if it is registered under {@code subject}; else {@link SchemaNotFoundException}. */
  int getId(String subject, Schema schema);

  SchemaMetadata getLatestSchemaMetadata(String subject);

  SchemaMetadata getSchemaMetadata(String subject, int version);

  List<Integer> getAllVersions(String subject);

  Collection<String> getAllSubjects();

  /** Whether {@code schema} could be registered under {@code subject} at its compatibility level. */
  boolean testCompatibility(String subject, Schema schema);

  /** The level in force for {@code subject}: its own if set, else the global one. Null subject: global. */
  CompatibilityLevel getCompatibility(String subject);

  /** Sets the level of {@code subject}, or the global level when {@code subject} is null. */
  CompatibilityLevel updateCompatibility(String subject, CompatibilityLevel level);
}
