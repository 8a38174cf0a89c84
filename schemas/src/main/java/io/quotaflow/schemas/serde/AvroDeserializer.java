package io.quotaflow.schemas.serde;

import io.quotaflow.schemas.registry.SchemaNotFoundException;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import io.quotaflow.schemas.registry.SchemaRegistryException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads Confluent-framed Avro, resolving the writer's schema (fetched by id, cached forever) against
 * the reader's: a specific record class ({@link #AvroDeserializer(Class, SchemaRegistryClient, boolean)})
 * or, for tools, generic records in a given or the writer's own schema ({@link #generic}), so older and
 * newer writers both decode.
 * Bad bytes raise a specific {@link WireFormatException}; a registry outage raises the retriable
 * {@code RegistryUnavailableException}, never a poison-record error.
 */
public final class AvroDeserializer<T> implements Deserializer<T> {

  /** Fully qualified class to read into, for Kafka's {@code value.deserializer} config (Confluent's name). */
  public static final String VALUE_TYPE = "specific.avro.value.type";
  public static final String KEY_TYPE = "specific.avro.key.type";

  private SchemaRegistryClient registry;
  private Schema readerSchema;
  private boolean generic;
  private boolean isKey;
  private final Map<Integer, DatumReader<T>> readersByWriterId = new ConcurrentHashMap<>();

  /** For Kafka's {@code value.deserializer} config: {@link #configure} supplies registry and type. */
  public AvroDeserializer() {}

  public AvroDeserializer(Class<T> type, SchemaRegistryClient registry, boolean isKey) {
    this.registry = registry;
    this.isKey = isKey;
    setType(type);
  }

  /**
   * Generic records in {@code readerSchema}, or in each writer's own schema when it is null: what a
   * tool needs that reads a topic without the generated classes (DLQ inspection, replay, newer schemas).
   */
  public static AvroDeserializer<GenericRecord> generic(Schema readerSchema, SchemaRegistryClient registry, boolean isKey) {
    AvroDeserializer<GenericRecord> deserializer = new AvroDeserializer<>();
    deserializer.registry = registry;
    deserializer.isKey = isKey;
    deserializer.readerSchema = readerSchema;
    deserializer.generic = true;
    return deserializer;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void configure(Map<String, ?> configs, boolean isKey) {
    this.isKey = isKey;
    if (registry == null) {
      registry = SchemaRegistryClients.create(configs);
    }
    Object typeName = configs.get(isKey ? KEY_TYPE : VALUE_TYPE);
    if (readerSchema == null && !generic && typeName != null) {
      try {
        setType((Class<T>) Class.forName(typeName.toString()));
      } catch (ClassNotFoundException e) {
        throw new IllegalArgumentException("no Avro class " + typeName + " for " + (isKey ? KEY_TYPE : VALUE_TYPE), e);
      }
    }
  }

  private void setType(Class<T> type) {
    this.readerSchema = SpecificData.get().getSchema(type);
  }

  @Override
  public T deserialize(String topic, byte[] data) {
    return decode(RecordLocation.topic(topic), null, data);
  }

  @Override
  public T deserialize(String topic, Headers headers, byte[] data) {
    return decode(RecordLocation.topic(topic), headers, data);
  }

  @Override
  public T deserialize(String topic, Headers headers, ByteBuffer data) {
    if (data == null) {
      return null;
    }
    byte[] bytes = new byte[data.remaining()];
    data.duplicate().get(bytes);
    return decode(RecordLocation.topic(topic), headers, bytes);
  }

  /** Decodes a raw record, naming its partition and offset in any error. */
  public T deserialize(ConsumerRecord<byte[], byte[]> record) {
    RecordLocation location = new RecordLocation(record.topic(), record.partition(), record.offset());
    return decode(location, record.headers(), isKey ? record.key() : record.value());
  }

  T decode(RecordLocation location, Headers headers, byte[] data) {
    if (data == null) {
      return null;
    }
    if (registry == null || readerSchema == null && !generic) {
      throw new IllegalStateException("AvroDeserializer for " + location + " is not configured with a registry and a type");
    }
    if (data.length < WireFormat.HEADER_BYTES || data[0] != WireFormat.MAGIC_BYTE) {
      String header = isKey ? WireFormat.KEY_SCHEMA_ID_HEADER : WireFormat.VALUE_SCHEMA_ID_HEADER;
      if (headers != null && headers.lastHeader(header) != null) {
        throw new WireFormatException.HeaderFramedRecordException(location, header);
      }
      if (data.length == 0 || data[0] != WireFormat.MAGIC_BYTE) {
        throw new WireFormatException.BadMagicByteException(location, data.length == 0 ? (byte) -1 : data[0]);
      }
      throw new WireFormatException.TruncatedRecordException(location, "record has " + data.length
          + " bytes; the Confluent wire format needs at least " + WireFormat.HEADER_BYTES + " (magic byte and schema id)", null);
    }
    int schemaId = ByteBuffer.wrap(data, 1, 4).getInt();
    DatumReader<T> reader = readerFor(location, schemaId);
    BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(data, WireFormat.HEADER_BYTES, data.length - WireFormat.HEADER_BYTES, null);
    T value;
    try {
      value = reader.read(null, decoder);
    } catch (EOFException e) {
      throw new WireFormatException.TruncatedRecordException(location, "Avro payload ends early for schema id " + schemaId, e);
    } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException | NegativeArraySizeException | ClassCastException
        | UnsupportedOperationException e) { // Avro's answer to a length beyond what an array can hold
      throw new WireFormatException.MalformedPayloadException(location, "Avro payload does not decode with schema id "
          + schemaId + ": " + e, e);
    }
    try {
      if (!decoder.isEnd()) {
        throw new WireFormatException.MalformedPayloadException(location, "bytes left over after decoding schema id " + schemaId, null);
      }
    } catch (IOException e) {
      throw new WireFormatException.MalformedPayloadException(location, "cannot check the end of the payload: " + e, e);
    }
    return value;
  }

  private DatumReader<T> readerFor(RecordLocation location, int schemaId) {
    DatumReader<T> cached = readersByWriterId.get(schemaId);
    if (cached != null) {
      return cached;
    }
    Schema writerSchema;
    try {
      writerSchema = registry.getSchemaById(schemaId);
    } catch (SchemaNotFoundException e) {
      throw new WireFormatException.UnknownSchemaIdException(location, schemaId, e);
    } catch (SchemaRegistryException e) {
      throw new SerializationException("schema registry refused schema id " + schemaId + " (" + location + "): " + e.getMessage(), e);
    }
    Schema reading = readerSchema == null ? writerSchema : readerSchema;
    if (!writerSchema.getFullName().equals(reading.getFullName()) && !reading.getAliases().contains(writerSchema.getFullName())) {
      throw new WireFormatException.MalformedPayloadException(location, "schema id " + schemaId + " is "
          + writerSchema.getFullName() + ", not " + reading.getFullName(), null);
    }
    DatumReader<T> reader = generic ? new GenericDatumReader<>(writerSchema, reading) : new SpecificDatumReader<>(writerSchema, reading);
    readersByWriterId.put(schemaId, reader);
    return reader;
  }
}
