package io.quotaflow.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.quotaflow.schemas.ContractExamples;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Whatever bytes arrive, the deserializer answers with a value or a {@link WireFormatException}: never an NPE or worse. */
class AvroDeserializerFuzzTest {

  private static final String TOPIC = "quotaflow.samples";

  @Property(tries = 500)
  void randomBytesNeverEscapeAsAnythingButWireFormatErrors(@ForAll @Size(max = 80) byte[] bytes) {
    InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    registry.register(TOPIC + "-value", CgroupSample.getClassSchema());
    Throwable thrown = catchThrowable(() -> new AvroDeserializer<>(CgroupSample.class, registry, false).deserialize(TOPIC, bytes));
    assertThat(thrown).satisfiesAnyOf(t -> assertThat(t).isNull(), t -> assertThat(t).isInstanceOf(WireFormatException.class));
  }

  /** A corrupted length can claim more than any Java array holds; Avro refuses that with its own exception. */
  @org.junit.jupiter.api.Test
  void aStringLongerThanAnyArrayIsAMalformedPayload() throws java.io.IOException {
    InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    byte[] valid = new AvroSerializer<CgroupSample>(registry, false, true).serialize(TOPIC, ContractExamples.sample());
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.write(valid, 0, WireFormat.HEADER_BYTES);
    org.apache.avro.io.BinaryEncoder encoder = org.apache.avro.io.EncoderFactory.get().directBinaryEncoder(out, null);
    encoder.writeLong(3_000_000_000L); // the length of `node`, the first field
    encoder.flush();
    Throwable thrown = catchThrowable(() -> new AvroDeserializer<>(CgroupSample.class, registry, false)
        .deserialize(TOPIC, out.toByteArray()));
    assertThat(thrown).isInstanceOf(WireFormatException.MalformedPayloadException.class);
  }

  @Property(tries = 500)
  void corruptingAValidRecordNeverEscapesAsAnythingButWireFormatErrors(
      @ForAll @IntRange(min = 5, max = 200) int position, @ForAll byte replacement, @ForAll @IntRange(min = 0, max = 60) int cut) {
    InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    byte[] bytes = new AvroSerializer<CgroupSample>(registry, false, true).serialize(TOPIC, ContractExamples.sample());
    bytes[position % bytes.length] = replacement;
    byte[] damaged = java.util.Arrays.copyOf(bytes, Math.max(0, bytes.length - cut));
    Throwable thrown = catchThrowable(() -> new AvroDeserializer<>(CgroupSample.class, registry, false).deserialize(TOPIC, damaged));
    assertThat(thrown).satisfiesAnyOf(t -> assertThat(t).isNull(), t -> assertThat(t).isInstanceOf(WireFormatException.class));
  }
}
