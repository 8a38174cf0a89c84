package io.quotaflow.embedded;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.schemas.registry.SchemaMetadata;
import io.quotaflow.schemas.registry.SchemaRegistryException;
import java.io.IOException;

/** JSON in and out of the registry API, in the shapes Confluent's registry uses. */
final class RegistryJson {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private RegistryJson() {}

  /** Parses a request body; malformed JSON is a 400, as Confluent's REST layer answers it. */
  static JsonNode read(byte[] body) {
    if (body == null || body.length == 0) {
      throw new SchemaRegistryException(400, 400, "The request body is empty; a JSON object is expected");
    }
    try {
      JsonNode node = MAPPER.readTree(body);
      if (node == null || !node.isObject()) {
        throw new SchemaRegistryException(400, 400, "The request body is not a JSON object");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new SchemaRegistryException(400, 400, "Malformed JSON in the request body: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new SchemaRegistryException(400, 400, "Unreadable request body: " + e.getMessage());
    }
  }

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  /** {@code {"subject","version","id","schema"}}: a version, as GET .../versions/{v} and a lookup return it. */
  static String version(SchemaMetadata metadata) {
    return object()
        .put("subject", metadata.subject())
        .put("version", metadata.version())
        .put("id", metadata.id())
        .put("schema", metadata.schema().toString())
        .toString();
  }

  static String error(int errorCode, String message) {
    return object().put("error_code", errorCode).put("message", message).toString();
  }
}
