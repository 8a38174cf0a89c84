package io.quotaflow.schemas.serde;

import io.quotaflow.schemas.registry.RegistryUnavailableException;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import io.quotaflow.schemas.registry.SchemaRegistryException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.generic.GenericContainer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes Avro records (specific or generic) in the Confluent wire format: byte 0x00, the 4-byte big-endian
 * schema id, then the Avro binary encoding. Subjects follow {@code TopicNameStrategy}. The id is
 * fetched once per (topic, schema); a registry outage surfaces as the retriable
 * {@link RegistryUnavailableException}.
 */
public final class AvroSerializer<T extends GenericContainer> implements Serializer<T> {

  /** Register the writer's schema when missing (Confluent's default); false only looks it up. */
  public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";

  private SchemaRegistryClient registry;
  private boolean isKey;
  private boolean autoRegister = true;
  private final Map<String, Map<Schema, Integer>> idsByTopic = new ConcurrentHashMap<>();
  private final Map<Schema, DatumWriter<T>> writers = new ConcurrentHashMap<>();

  /** For Kafka's {@code value.serializer} config: {@link #configure} supplies the registry. */
  public AvroSerializer() {}

  public AvroSerializer(SchemaRegistryClient registry, boolean isKey, boolean autoRegister) {
    this.registry = registry;
    this.isKey = isKey;
    this.autoRegister = autoRegister;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    this.isKey = isKey;
    if (registry == null) {
      registry = SchemaRegistryClients.create(configs);
    }
    Object auto = configs.get(AUTO_REGISTER_SCHEMAS);
    if (auto != null) {
      autoRegister = Boolean.parseBoolean(auto.toString());
    }
  }

  @Override
  public byte[] serialize(String topic, T data) {
    if (data == null) {
      return null; // tombstones are never framed
    }
    if (registry == null) {
      throw new IllegalStateException("AvroSerializer for topic " + topic + " has no schema registry: configure it first");
    }
    Schema schema = data.getSchema();
    int id = schemaId(topic, schema);
    EncodeBuffer out = EncodeBuffer.forThisThread();
    out.write(WireFormat.MAGIC_BYTE);
    out.write(id >>> 24);
    out.write(id >>> 16);
    out.write(id >>> 8);
    out.write(id);
    try {
      BinaryEncoder encoder = out.encoder();
      writers.computeIfAbsent(schema, s -> new SpecificDatumWriter<>(s, AvroModel.CUSTOM_CODERS)).write(data, encoder);
      encoder.flush();
    } catch (IOException | RuntimeException e) {
      throw new SerializationException("cannot encode " + schema.getFullName() + " for topic " + topic + ": " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  /**
   * One buffer and encoder per thread, reused: the streams app encodes a task's state and a decision
   * on almost every sample, and a fresh 128-byte stream grew and copied itself twice for each. The
   * encoder is Avro's buffered one (the same bytes): the direct one hands the stream every byte of a
   * varint through {@code ByteArrayOutputStream}'s synchronized {@code write(int)}, 4 % of the stream
   * threads' CPU in {@code bench cpu}; the buffered one fills its own array and hands it over at
   * {@code flush}.
   */
  private static final class EncodeBuffer extends ByteArrayOutputStream {
    private static final int INITIAL_BYTES = 1024;
    /** A buffer that grew past this for one large record is not kept. */
    private static final int KEPT_BYTES = 1 << 20;
    private static final ThreadLocal<EncodeBuffer> BUFFERS = ThreadLocal.withInitial(EncodeBuffer::new);

    private BinaryEncoder encoder;

    private EncodeBuffer() {
      super(INITIAL_BYTES);
    }

    static EncodeBuffer forThisThread() {
      EncodeBuffer buffer = BUFFERS.get();
      if (buffer.buf.length > KEPT_BYTES) {
        buffer = new EncodeBuffer();
        BUFFERS.set(buffer);
      }
      buffer.reset();
      return buffer;
    }

    /** Always bound to this buffer; a new one when an encode that failed left bytes in the last. */
    BinaryEncoder encoder() {
      if (encoder == null || encoder.bytesBuffered() != 0) {
        encoder = EncoderFactory.get().binaryEncoder(this, null);
      }
      return encoder;
    }
  }

  private int schemaId(String topic, Schema schema) {
    Map<Schema, Integer> ids = idsByTopic.computeIfAbsent(topic, t -> new ConcurrentHashMap<>());
    Integer cached = ids.get(schema);
    if (cached != null) {
      return cached;
    }
    String subject = SubjectNames.topicNameStrategy(topic, isKey);
    try {
      int id = autoRegister ? registry.register(subject, schema) : registry.getId(subject, schema);
      ids.put(schema, id);
      return id;
    } catch (RegistryUnavailableException e) {
      throw e;
    } catch (SchemaRegistryException e) {
      throw new SerializationException("cannot " + (autoRegister ? "register" : "find") + " schema "
          + schema.getFullName() + " under subject " + subject + ": " + e.getMessage(), e);
    }
  }
}
