package io.quotaflow.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.schemas.registry.InvalidSchemaException;
import org.apache.avro.Schema;

/** The body of a register, lookup or compatibility call: {@code {"schema": "...", "schemaType"?, "references"?}}. */
record SchemaRequest(Schema schema) {

  static SchemaRequest parse(byte[] body) {
    JsonNode json = RegistryJson.read(body);
    JsonNode text = json.path("schema");
    if (!text.isTextual() || text.asText().isBlank()) {
      throw new InvalidSchemaException("Empty schema: the request body has no \"schema\" string");
    }
    String type = json.path("schemaType").asText("AVRO");
    if (!"AVRO".equalsIgnoreCase(type)) {
      throw new InvalidSchemaException("Schema type " + type + " is not supported: this registry keeps Avro schemas only");
    }
    if (json.path("references").size() > 0) {
      throw new InvalidSchemaException("Schema references are not supported by this registry");
    }
    try {
      return new SchemaRequest(new Schema.Parser().parse(text.asText()));
    } catch (RuntimeException e) {
      // Avro's parser reports some malformed schemas with AvroRuntimeException, others (an unknown
      // type name) with NullPointerException: any of them is the client's invalid schema.
      throw new InvalidSchemaException("Invalid schema " + text.asText() + ", details: " + e.getMessage());
    }
  }
}
