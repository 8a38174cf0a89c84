package io.quotaflow.schemas.registry;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;

/** Small schemas for registry tests: a base record and its compatible and incompatible successors. */
final class TestSchemas {
  private TestSchemas() {}

  static Schema base() {
    return SchemaBuilder.record("Reading").namespace("test").fields()
        .requiredString("node").requiredLong("ts_ms").endRecord();
  }

  /** Adds a field with a default: FULL compatible with {@link #base}. */
  static Schema withOptionalField() {
    return SchemaBuilder.record("Reading").namespace("test").fields()
        .requiredString("node").requiredLong("ts_ms").name("cpu_usage_usec").type().longType().longDefault(0).endRecord();
  }

  /** Adds a field without a default: new readers cannot read old data (not BACKWARD). */
  static Schema withRequiredField() {
    return SchemaBuilder.record("Reading").namespace("test").fields()
        .requiredString("node").requiredLong("ts_ms").requiredLong("memory_bytes").endRecord();
  }

  /** Changes a field's type incompatibly. */
  static Schema withChangedType() {
    return SchemaBuilder.record("Reading").namespace("test").fields()
        .requiredString("node").requiredString("ts_ms").endRecord();
  }
}
