package io.quotaflow.embedded;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Builds a record of any generated Avro class with every field set from its schema, so a test
 * covers each schema without naming its fields: values differ per field and per seed, and nullable
 * fields are either all set or all null.
 */
final class AvroSamples {
  private AvroSamples() {}

  static <T extends SpecificRecord> T of(Class<T> type, long seed, boolean setNullables) {
    Schema schema = SpecificData.get().getSchema(type);
    return type.cast(value(schema, schema.getName(), seed, setNullables));
  }

  private static Object value(Schema schema, String name, long seed, boolean setNullables) {
    return switch (schema.getType()) {
      case RECORD -> record(schema, seed, setNullables);
      case ENUM -> SpecificData.get().createEnum(schema.getEnumSymbols().get((int) (seed % schema.getEnumSymbols().size())), schema);
      case UNION -> union(schema, name, seed, setNullables);
      case STRING -> name + "-" + seed;
      case LONG -> 1_700_000_000_000L + seed * 7919;
      case INT -> (int) (seed * 31 % 100_000);
      case DOUBLE -> seed + 0.25;
      case FLOAT -> seed + 0.5f;
      case BOOLEAN -> seed % 2 == 1;
      case BYTES -> ByteBuffer.wrap((name + seed).getBytes(StandardCharsets.UTF_8));
      case FIXED -> SpecificData.get().createFixed(null, new byte[schema.getFixedSize()], schema);
      case ARRAY -> new GenericData.Array<>(schema, List.of(
          value(schema.getElementType(), name, seed, setNullables), value(schema.getElementType(), name, seed + 1, setNullables)));
      case MAP -> Map.of(name, value(schema.getValueType(), name, seed, setNullables));
      case NULL -> null;
    };
  }

  private static Object record(Schema schema, long seed, boolean setNullables) {
    SpecificRecord record = (SpecificRecord) SpecificData.get().newRecord(null, schema);
    for (Schema.Field field : schema.getFields()) {
      record.put(field.pos(), value(field.schema(), field.name(), seed * 100 + field.pos() + 1, setNullables));
    }
    return record;
  }

  private static Object union(Schema schema, String name, long seed, boolean setNullables) {
    boolean nullable = schema.getTypes().stream().anyMatch(branch -> branch.getType() == Schema.Type.NULL);
    if (nullable && !setNullables) {
      return null;
    }
    Schema branch = schema.getTypes().stream().filter(b -> b.getType() != Schema.Type.NULL).findFirst().orElseThrow();
    return value(branch, name, seed, setNullables);
  }
}
