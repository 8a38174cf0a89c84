package io.quotaflow.embedded;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.schemas.registry.CompatibilityLevel;
import io.quotaflow.schemas.registry.SchemaMetadata;
import java.util.Optional;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;

/**
 * The JSON keys and values of the store topic, laid out as Confluent's registry lays out its
 * {@code _schemas} records: key {@code {"keytype":"SCHEMA","subject":..,"version":..,"magic":1}},
 * value {@code {"subject","version","id","schema","deleted"}}; key
 * {@code {"keytype":"CONFIG","subject":..|null,"magic":0}}, value {@code {"compatibilityLevel":..}}.
 * Keys are written with a fixed field order, so compaction keeps exactly the last value of each.
 */
final class StoreCodec {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A record to write: key and value as JSON text. */
  record Encoded(String key, String value) {}

  private StoreCodec() {}

  static Encoded encode(StoreEntry entry) {
    if (entry instanceof StoreEntry.SchemaRegistered r) {
      return schema(r.registration());
    }
    StoreEntry.CompatibilitySet c = (StoreEntry.CompatibilitySet) entry;
    return config(c.subject(), c.level());
  }

  private static Encoded schema(SchemaMetadata r) {
    ObjectNode key = JSON.createObjectNode()
        .put("keytype", "SCHEMA").put("subject", r.subject()).put("version", r.version()).put("magic", 1);
    ObjectNode value = JSON.createObjectNode()
        .put("subject", r.subject()).put("version", r.version()).put("id", r.id())
        .put("schema", r.schema().toString()).put("deleted", false);
    return new Encoded(key.toString(), value.toString());
  }

  private static Encoded config(String subject, CompatibilityLevel level) {
    ObjectNode key = JSON.createObjectNode().put("keytype", "CONFIG");
    if (subject == null) {
      key.putNull("subject");
    } else {
      key.put("subject", subject);
    }
    key.put("magic", 0);
    return new Encoded(key.toString(), JSON.createObjectNode().put("compatibilityLevel", level.name()).toString());
  }

  /**
   * The entry a stored record holds; empty for records this registry does not act on (other key
   * types Confluent writes, such as NOOP or MODE, tombstones, deleted versions).
   *
   * @throws IllegalStateException when the record is not the JSON this layout has: replaying past it
   *     could hand out an id twice, so the registry refuses to start
   */
  static Optional<StoreEntry> decode(String key, String value, String where) {
    try {
      JsonNode k = JSON.readTree(key);
      if (value == null) {
        return Optional.empty();
      }
      JsonNode v = JSON.readTree(value);
      return switch (k.path("keytype").asText()) {
        case "SCHEMA" -> schemaEntry(v, where);
        case "CONFIG" -> Optional.of(new StoreEntry.CompatibilitySet(
            k.path("subject").isTextual() ? k.path("subject").asText() : null,
            CompatibilityLevel.parse(v.path("compatibilityLevel").asText())));
        default -> Optional.empty();
      };
    } catch (JsonProcessingException | IllegalArgumentException | AvroRuntimeException | NullPointerException e) {
      throw new IllegalStateException("unreadable schema store record at " + where + ": " + e.getMessage(), e);
    }
  }

  private static Optional<StoreEntry> schemaEntry(JsonNode v, String where) {
    if (v.path("deleted").asBoolean(false)) {
      return Optional.empty();
    }
    String type = v.path("schemaType").asText("AVRO");
    if (!"AVRO".equals(type)) {
      throw new IllegalArgumentException("schema type " + type + " is not supported (Avro only)");
    }
    for (String field : new String[] {"subject", "version", "id", "schema"}) {
      if (!v.hasNonNull(field)) {
        throw new IllegalArgumentException("field '" + field + "' is missing");
      }
    }
    Schema schema = new Schema.Parser().parse(v.get("schema").asText());
    return Optional.of(new StoreEntry.SchemaRegistered(
        new SchemaMetadata(v.get("subject").asText(), v.get("version").asInt(), v.get("id").asInt(), schema)));
  }
}
