package io.quotaflow.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.ContractExamples;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import io.quotaflow.schemas.registry.RegistryClientConfig;
import io.quotaflow.schemas.registry.RegistryUnavailableException;
import io.quotaflow.schemas.registry.RestSchemaRegistryClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class AvroSerdeTest {

  private static final String TOPIC = "quotaflow.samples";
  private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();

  @SuppressWarnings("unchecked")
  private <T extends SpecificRecord> T roundTrip(T value) {
    AvroSerde<T> serde = AvroSerde.value((Class<T>) value.getClass(), registry);
    byte[] bytes = serde.serializer().serialize(TOPIC + "." + value.getSchema().getName(), value);
    return serde.deserializer().deserialize(TOPIC + "." + value.getSchema().getName(), bytes);
  }

  @Test
  void everyContractRecordRoundTrips() {
    for (SpecificRecord value : ContractExamples.all()) {
      assertThat(roundTrip(value)).as(value.getSchema().getName()).isEqualTo(value);
    }
  }

  @Test
  void theGeneratedCodersWriteTheBytesAvroItselfWrites() throws IOException {
    for (SpecificRecord value : ContractExamples.all()) {
      byte[] framed = new AvroSerializer<SpecificRecord>(registry, false, true).serialize(TOPIC + "." + value.getSchema().getName(), value);
      ByteArrayOutputStream plain = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(plain, null);
      new SpecificDatumWriter<SpecificRecord>(value.getSchema(), new SpecificData()).write(value, encoder);
      assertThat(Arrays.copyOfRange(framed, WireFormat.HEADER_BYTES, framed.length))
          .as(value.getSchema().getName()).isEqualTo(plain.toByteArray());
    }
  }

  @Test
  void aLargeRecordThenASmallOneAreEachWrittenWhole() {
    Schema blob = SchemaBuilder.record("Blob").namespace("x").fields().requiredString("text").endRecord();
    AvroSerializer<GenericRecord> serializer = new AvroSerializer<>(registry, false, true);
    GenericRecord large = new GenericData.Record(blob);
    large.put("text", "x".repeat(2 << 20)); // beyond what the per-thread buffer keeps
    GenericRecord small = new GenericData.Record(blob);
    small.put("text", "y");

    byte[] largeBytes = serializer.serialize("blobs", large);
    byte[] smallBytes = serializer.serialize("blobs", small);

    assertThat(largeBytes).hasSize(WireFormat.HEADER_BYTES + 4 + (2 << 20)); // zigzag length of 2 MiB takes 4 bytes
    assertThat(smallBytes).hasSize(WireFormat.HEADER_BYTES + 2);
    assertThat(smallBytes[WireFormat.HEADER_BYTES + 1]).isEqualTo((byte) 'y');
    assertThat(serializer.serialize("blobs", small)).isEqualTo(smallBytes);
  }

  @Test
  void anEncodeThatFailsHalfwayLeavesNothingInTheNextRecord() {
    Schema pair = SchemaBuilder.record("Pair").namespace("x").fields()
        .requiredString("first").requiredString("second").endRecord();
    AvroSerializer<GenericRecord> serializer = new AvroSerializer<>(registry, false, true);
    GenericRecord broken = new GenericData.Record(pair);
    broken.put("first", "written before the failure");
    GenericRecord good = new GenericData.Record(pair);
    good.put("first", "a");
    good.put("second", "b");

    assertThatThrownBy(() -> serializer.serialize("pairs", broken)).isInstanceOf(SerializationException.class)
        .hasMessageContaining("x.Pair");
    assertThat(serializer.serialize("pairs", good))
        .isEqualTo(new AvroSerializer<GenericRecord>(registry, false, true).serialize("pairs", good));
  }

  @Test
  void writesConfluentFramingWithTheRegisteredId() {
    byte[] bytes = new AvroSerializer<CgroupSample>(registry, false, true).serialize(TOPIC, ContractExamples.sample());
    int id = registry.getId(TOPIC + "-value", CgroupSample.getClassSchema());
    assertThat(bytes[0]).isEqualTo((byte) 0);
    assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
    assertThat(registry.getAllSubjects()).containsExactly(TOPIC + "-value");
  }

  @Test
  void tombstonesAreNotFramed() {
    AvroSerde<CgroupSample> serde = AvroSerde.value(CgroupSample.class, registry);
    assertThat(serde.serializer().serialize(TOPIC, null)).isNull();
    assertThat(serde.deserializer().deserialize(TOPIC, (byte[]) null)).isNull();
  }

  @Test
  void withoutAutoRegisterAnUnregisteredSchemaIsASerializationError() {
    AvroSerializer<CgroupSample> serializer = new AvroSerializer<>(registry, false, false);
    assertThatThrownBy(() -> serializer.serialize(TOPIC, ContractExamples.sample()))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("cannot find schema io.quotaflow.schemas.avro.CgroupSample under subject quotaflow.samples-value");
    registry.register(TOPIC + "-value", CgroupSample.getClassSchema());
    assertThat(serializer.serialize(TOPIC, ContractExamples.sample())).isNotNull();
  }

  /** A later CgroupSample: one more field with a default, as the contract allows. */
  private static Schema newerSample() {
    Schema current = CgroupSample.getClassSchema();
    java.util.List<Schema.Field> fields = new java.util.ArrayList<>();
    for (Schema.Field f : current.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    fields.add(new Schema.Field("cpu_pressure_some_avg10", Schema.create(Schema.Type.DOUBLE), "PSI some avg10, percent.", 0.0));
    return Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields);
  }

  @Test
  void anOlderReaderReadsRecordsFromANewerWriter() {
    Schema newer = newerSample();
    GenericRecord written = new GenericData.Record(newer);
    CgroupSample sample = ContractExamples.sample();
    for (Schema.Field f : CgroupSample.getClassSchema().getFields()) {
      written.put(f.name(), GenericData.get().deepCopy(f.schema(), sample.get(f.pos())));
    }
    written.put("state", new GenericData.EnumSymbol(newer.getField("state").schema(), sample.getState().name()));
    written.put("cpu_pressure_some_avg10", 12.5);
    byte[] bytes = new AvroSerializer<GenericRecord>(registry, false, true).serialize(TOPIC, written);

    CgroupSample read = new AvroDeserializer<>(CgroupSample.class, registry, false).deserialize(TOPIC, bytes);
    assertThat(read).isEqualTo(sample);
  }

  @Test
  void aNewerReaderReadsRecordsFromAnOlderWriterWithDefaults() {
    byte[] bytes = new AvroSerializer<CgroupSample>(registry, false, true).serialize(TOPIC, ContractExamples.sample());
    GenericRecord read = AvroDeserializer.generic(newerSample(), registry, false).deserialize(TOPIC, bytes);
    assertThat(read.get("cpu_pressure_some_avg10")).isEqualTo(0.0);
    assertThat(read.get("cpu_usage_usec")).isEqualTo(123_456_789L);
    GenericRecord asWritten = AvroDeserializer.generic(null, registry, false).deserialize(TOPIC, bytes);
    assertThat(asWritten.getSchema()).isEqualTo(CgroupSample.getClassSchema());
  }

  @Test
  void aRecordOfAnotherTypeIsRefusedNotMisread() {
    Schema other = SchemaBuilder.record("Other").namespace("x").fields().requiredLong("a").endRecord();
    GenericRecord record = new GenericData.Record(other);
    record.put("a", 1L);
    byte[] bytes = new AvroSerializer<GenericRecord>(registry, false, true).serialize("elsewhere", record);
    assertThatThrownBy(() -> new AvroDeserializer<>(CgroupSample.class, registry, false).deserialize(TOPIC, bytes))
        .isInstanceOf(WireFormatException.MalformedPayloadException.class)
        .hasMessageContaining("is x.Other, not io.quotaflow.schemas.avro.CgroupSample");
  }

  @Test
  void badBytesRaiseSpecificErrorsNamingWhereTheRecordWas() {
    AvroDeserializer<CgroupSample> deserializer = new AvroDeserializer<>(CgroupSample.class, registry, false);
    byte[] good = new AvroSerializer<CgroupSample>(registry, false, true).serialize(TOPIC, ContractExamples.sample());

    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, new byte[] {1, 0, 0, 0, 1, 2}))
        .isInstanceOf(WireFormatException.BadMagicByteException.class)
        .hasMessageContaining("unknown magic byte 0x01").hasMessageContaining("topic quotaflow.samples");
    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, new byte[] {0, 0, 0}))
        .isInstanceOf(WireFormatException.TruncatedRecordException.class).hasMessageContaining("3 bytes");
    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, new byte[] {0, 0, 0, 0x7f, 0x7f, 2}))
        .isInstanceOf(WireFormatException.UnknownSchemaIdException.class).hasMessageContaining("schema id 32639");
    byte[] cut = java.util.Arrays.copyOf(good, good.length - 3);
    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, cut))
        .isInstanceOf(WireFormatException.TruncatedRecordException.class).hasMessageContaining("ends early");
    byte[] longer = java.util.Arrays.copyOf(good, good.length + 2);
    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, longer))
        .isInstanceOf(WireFormatException.MalformedPayloadException.class).hasMessageContaining("left over");

    ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(TOPIC, 4, 1234L, null, new byte[] {9, 9, 9, 9, 9});
    assertThatThrownBy(() -> deserializer.deserialize(record))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("topic quotaflow.samples partition 4 offset 1234");
  }

  @Test
  void headerFramedRecordsAreRecognisedAndRefusedClearly() {
    RecordHeaders headers = new RecordHeaders();
    headers.add(WireFormat.VALUE_SCHEMA_ID_HEADER, new byte[17]);
    assertThatThrownBy(() -> new AvroDeserializer<>(CgroupSample.class, registry, false).deserialize(TOPIC, headers, new byte[] {2, 4, 6}))
        .isInstanceOf(WireFormatException.HeaderFramedRecordException.class)
        .hasMessageContaining("__value_schema_id");
  }

  @Test
  void registryOutageIsRetriableAndNotAPoisonRecord() throws IOException {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    RestSchemaRegistryClient unreachable = new RestSchemaRegistryClient(
        RegistryClientConfig.of("http://127.0.0.1:" + deadPort).withRetries(0, Duration.ZERO, Duration.ZERO));
    byte[] good = new AvroSerializer<CgroupSample>(registry, false, true).serialize(TOPIC, ContractExamples.sample());
    assertThatThrownBy(() -> new AvroDeserializer<>(CgroupSample.class, unreachable, false).deserialize(TOPIC, good))
        .isInstanceOf(RegistryUnavailableException.class)
        .isInstanceOf(RetriableException.class)
        .isNotInstanceOf(SerializationException.class);
    assertThatThrownBy(() -> new AvroSerializer<CgroupSample>(unreachable, false, true).serialize(TOPIC, ContractExamples.sample()))
        .isInstanceOf(RegistryUnavailableException.class);
  }

  @Test
  void configuresFromKafkaPropertiesWithAMockScope() {
    String scope = "serde-test-" + System.nanoTime();
    java.util.Map<String, Object> props = java.util.Map.of(
        RegistryClientConfig.URL, "mock://" + scope,
        AvroDeserializer.VALUE_TYPE, CgroupSample.class.getName());
    AvroSerializer<CgroupSample> serializer = new AvroSerializer<>();
    serializer.configure(props, false);
    AvroDeserializer<CgroupSample> deserializer = new AvroDeserializer<>();
    deserializer.configure(props, false);
    byte[] bytes = serializer.serialize(TOPIC, ContractExamples.sample());
    assertThat(deserializer.deserialize(TOPIC, bytes)).isEqualTo(ContractExamples.sample());
    assertThat(io.quotaflow.schemas.registry.SchemaRegistryClients.scope(scope).getAllSubjects()).containsExactly(TOPIC + "-value");
    io.quotaflow.schemas.registry.SchemaRegistryClients.dropScope(scope);
  }
}
