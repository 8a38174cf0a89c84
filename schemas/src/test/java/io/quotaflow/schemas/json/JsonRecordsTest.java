package io.quotaflow.schemas.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.internal.BroadcastKind;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class JsonRecordsTest {

  /** The record as Avro's own JSON encoder writes it: union values wrapped in their type's (full) name. */
  private static String avroJson(SpecificRecord record) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    JsonEncoder encoder = EncoderFactory.get().jsonEncoder(record.getSchema(), bytes);
    new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
    encoder.flush();
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void avrosOwnJsonFormReadsBackToTheSameRecordRecordBranchesIncluded() throws IOException {
    ConfigBroadcast broadcast = ConfigBroadcast.newBuilder().setKind(BroadcastKind.POOL_CONFIG).setId("prod")
        .setClusterConfig(ClusterConfig.newBuilder().setCluster("main").setTotalCpu(8.0).build())
        .setPoolConfig(PoolConfig.newBuilder().setPool("prod").setParent("root").setLimitCpu(2.5).build())
        .build();
    String json = avroJson(broadcast);
    assertThat(json).contains("\"pool_config\":{\"io.quotaflow.schemas.avro.PoolConfig\":{\"pool\":\"prod\",\"parent\":{\"string\":\"root\"}");

    assertThat(JsonRecords.fromJson(JsonRecords.MAPPER.readTree(json), ConfigBroadcast.class)).isEqualTo(broadcast);
    assertThat(JsonRecords.fromJson(JsonRecords.toJson(broadcast), ConfigBroadcast.class)).as("the plain form still reads")
        .isEqualTo(broadcast);
  }

  @Test
  void aWrappedValueOfTheWrongTypeIsRefusedNamingTheField() throws IOException {
    assertThatThrownBy(() -> JsonRecords.fromJson(JsonRecords.MAPPER.readTree("{\"pool\": \"p\", \"limit_cpu\": {\"string\": \"2\"}}"),
        PoolConfig.class))
        .hasMessage("field limit_cpu: expected a number, got object {\"string\":\"2\"}");
  }
}
