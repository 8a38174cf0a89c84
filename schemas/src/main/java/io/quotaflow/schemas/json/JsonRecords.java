package io.quotaflow.schemas.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Contract records as plain JSON, the way people write and read them: field names as in the
 * schemas, nullable fields bare or absent, enums as strings, absent fields taking the schema's
 * defaults. Reading also takes Avro's own JSON encoding, which wraps a union's non-null value as
 * {"type": value} ({@code kafka-avro-console-consumer} prints it so; nobody types it by hand);
 * writing is always plain. Used by {@code simulate} and the operator tools.
 */
public final class JsonRecords {

  public static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonRecords() {}

  /** Reads {@code json} into the record class; throws {@link JsonRecordException} naming the field at fault. */
  public static <T extends SpecificRecord> T fromJson(JsonNode json, Class<T> type) {
    Schema schema = SpecificData.get().getSchema(type);
    @SuppressWarnings("unchecked")
    T record = (T) SpecificData.get().deepCopy(schema, readRecord(json, schema, ""));
    return record;
  }

  public static ObjectNode toJson(GenericRecord record) {
    return (ObjectNode) write(record, record.getSchema());
  }

  private static GenericRecord readRecord(JsonNode json, Schema schema, String path) {
    if (json == null || !json.isObject()) {
      throw new JsonRecordException(where(path) + "expected an object for " + schema.getName() + ", got " + describe(json));
    }
    for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (schema.getField(name) == null) {
        throw new JsonRecordException(where(path + name) + "no such field in " + schema.getName() + " (fields: "
            + schema.getFields().stream().map(Schema.Field::name).toList() + ")");
      }
    }
    GenericRecord record = new GenericData.Record(schema);
    for (Schema.Field field : schema.getFields()) {
      String fieldPath = path + field.name();
      JsonNode value = json.get(field.name());
      if (value == null) {
        if (!field.hasDefaultValue()) {
          throw new JsonRecordException(where(fieldPath) + "required field is missing");
        }
        record.put(field.pos(), GenericData.get().getDefaultValue(field));
      } else {
        record.put(field.pos(), read(value, field.schema(), fieldPath));
      }
    }
    return record;
  }

  private static Object read(JsonNode json, Schema schema, String path) {
    switch (schema.getType()) {
      case NULL:
        if (!json.isNull()) {
          throw new JsonRecordException(where(path) + "expected null, got " + describe(json));
        }
        return null;
      case UNION:
        if (json.isNull()) {
          if (schema.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL)) {
            return null;
          }
          throw new JsonRecordException(where(path) + "must not be null");
        }
        Schema wrapped = wrappedBranch(json, schema);
        if (wrapped != null) {
          return read(json.iterator().next(), wrapped, path);
        }
        for (Schema branch : schema.getTypes()) {
          if (branch.getType() != Schema.Type.NULL) {
            return read(json, branch, path);
          }
        }
        throw new JsonRecordException(where(path) + "union has no non-null branch");
      case RECORD:
        return readRecord(json, schema, path + ".");
      case ENUM:
        if (!json.isTextual() || !schema.getEnumSymbols().contains(json.asText())) {
          throw new JsonRecordException(where(path) + "expected one of " + schema.getEnumSymbols() + ", got " + describe(json));
        }
        return new GenericData.EnumSymbol(schema, json.asText());
      case STRING:
        if (!json.isTextual()) {
          throw new JsonRecordException(where(path) + "expected a string, got " + describe(json));
        }
        return json.asText();
      case BOOLEAN:
        if (!json.isBoolean()) {
          throw new JsonRecordException(where(path) + "expected true or false, got " + describe(json));
        }
        return json.asBoolean();
      case INT:
        if (!json.canConvertToInt() || !json.isIntegralNumber()) {
          throw new JsonRecordException(where(path) + "expected an integer, got " + describe(json));
        }
        return json.asInt();
      case LONG:
        if (!json.canConvertToLong() || !json.isIntegralNumber()) {
          throw new JsonRecordException(where(path) + "expected an integer, got " + describe(json));
        }
        return json.asLong();
      case DOUBLE:
      case FLOAT:
        if (!json.isNumber()) {
          throw new JsonRecordException(where(path) + "expected a number, got " + describe(json));
        }
        if (!Double.isFinite(json.asDouble())) {
          // only a lenient parser lets NaN and Infinity through; no engine means anything by them
          throw new JsonRecordException(where(path) + "expected a finite number, got " + json.asText());
        }
        return schema.getType() == Schema.Type.FLOAT ? (Object) (float) json.asDouble() : json.asDouble();
      case ARRAY: {
        if (!json.isArray()) {
          throw new JsonRecordException(where(path) + "expected an array, got " + describe(json));
        }
        List<Object> items = new java.util.ArrayList<>();
        int i = 0;
        for (JsonNode item : json) {
          items.add(read(item, schema.getElementType(), path + "[" + i++ + "]"));
        }
        return new GenericData.Array<>(schema, items);
      }
      default:
        throw new JsonRecordException(where(path) + "type " + schema.getType() + " is not supported in JSON input");
    }
  }

  /**
   * The branch a value in Avro's own JSON form names ({@code {"double": 1.5}}, {@code {"io.quotaflow.X": {...}}}):
   * an object with one field named after a non-null branch (its full name, as Avro's JSON encoder writes it).
   * Never mistaken for a plain value: no branch of the contract's unions is a map, and record fields
   * cannot be named after a type ("double", "string" are not field names in the schemas; full names hold dots).
   */
  private static Schema wrappedBranch(JsonNode json, Schema union) {
    if (!json.isObject() || json.size() != 1) {
      return null;
    }
    String name = json.fieldNames().next();
    for (Schema branch : union.getTypes()) {
      if (branch.getType() != Schema.Type.NULL && branch.getType() != Schema.Type.MAP && branch.getFullName().equals(name)) {
        return branch;
      }
    }
    return null;
  }

  private static JsonNode write(Object value, Schema schema) {
    if (value == null) {
      return NODES.nullNode();
    }
    switch (schema.getType()) {
      case UNION:
        return write(value, schema.getTypes().get(GenericData.get().resolveUnion(schema, value)));
      case RECORD: {
        GenericRecord record = (GenericRecord) value;
        ObjectNode object = NODES.objectNode();
        for (Schema.Field field : schema.getFields()) {
          object.set(field.name(), write(record.get(field.pos()), field.schema()));
        }
        return object;
      }
      case ARRAY: {
        ArrayNode array = NODES.arrayNode();
        for (Object item : (Collection<?>) value) {
          array.add(write(item, schema.getElementType()));
        }
        return array;
      }
      case MAP: {
        ObjectNode object = NODES.objectNode();
        ((Map<?, ?>) value).forEach((k, v) -> object.set(k.toString(), write(v, schema.getValueType())));
        return object;
      }
      case ENUM:
      case STRING:
        return NODES.textNode(value.toString());
      case BOOLEAN:
        return NODES.booleanNode((Boolean) value);
      case INT:
        return NODES.numberNode((Integer) value);
      case LONG:
        return NODES.numberNode((Long) value);
      case FLOAT:
        return NODES.numberNode((Float) value);
      case DOUBLE:
        return NODES.numberNode((Double) value);
      default:
        return NODES.textNode(value.toString());
    }
  }

  private static String where(String path) {
    return path.isEmpty() ? "" : "field " + path + ": ";
  }

  private static String describe(JsonNode json) {
    if (json == null) {
      return "nothing";
    }
    String text = json.isNumber() ? json.asText() : json.toString(); // NaN as NaN, not "NaN"
    return json.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + (text.length() > 40 ? text.substring(0, 40) + "…" : text);
  }

  /** JSON that does not fit the schema; the message names the field. */
  public static final class JsonRecordException extends IllegalArgumentException {
    public JsonRecordException(String message) {
      super(message);
    }
  }
}
