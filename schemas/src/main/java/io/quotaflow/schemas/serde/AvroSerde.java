package io.quotaflow.schemas.serde;

import io.quotaflow.schemas.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;

/** {@link AvroSerializer} and {@link AvroDeserializer} for one record class, sharing one registry client. */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T> {

  private final Schema schema;
  private final AvroSerializer<T> serializer;
  private final AvroDeserializer<T> deserializer;

  public AvroSerde(Class<T> type, SchemaRegistryClient registry, boolean isKey, boolean autoRegister) {
    this.schema = SpecificData.get().getSchema(type);
    this.serializer = new AvroSerializer<>(registry, isKey, autoRegister);
    this.deserializer = new AvroDeserializer<>(type, registry, isKey);
  }

  /** A value serde that registers schemas as it writes. */
  public static <T extends SpecificRecord> AvroSerde<T> value(Class<T> type, SchemaRegistryClient registry) {
    return new AvroSerde<>(type, registry, false, true);
  }

  /** The schema of the record class: what this serde writes and reads into. */
  public Schema schema() {
    return schema;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    serializer.configure(configs, isKey);
    deserializer.configure(configs, isKey);
  }

  @Override
  public AvroSerializer<T> serializer() {
    return serializer;
  }

  @Override
  public AvroDeserializer<T> deserializer() {
    return deserializer;
  }
}
