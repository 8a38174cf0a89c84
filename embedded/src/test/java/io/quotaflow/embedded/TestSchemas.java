package io.quotaflow.embedded;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;

/** Small schemas with known compatibility relations, for registry tests. */
final class TestSchemas {
  private TestSchemas() {}

  /** {@code Reading{node: string}}. */
  static Schema v1(String name) {
    return SchemaBuilder.record(name).namespace("io.quotaflow.test").fields()
        .requiredString("node")
        .endRecord();
  }

  /** v1 plus an optional field with a default: compatible both ways. */
  static Schema v2WithDefault(String name) {
    return SchemaBuilder.record(name).namespace("io.quotaflow.test").fields()
        .requiredString("node")
        .name("cpu_usage_usec").type().longType().longDefault(0)
        .endRecord();
  }

  /** v1 plus a required field without a default: new readers cannot read old data (not BACKWARD). */
  static Schema v2WithoutDefault(String name) {
    return SchemaBuilder.record(name).namespace("io.quotaflow.test").fields()
        .requiredString("node")
        .requiredLong("memory_bytes")
        .endRecord();
  }
}
