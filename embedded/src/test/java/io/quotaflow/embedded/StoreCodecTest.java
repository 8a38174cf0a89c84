package io.quotaflow.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.registry.CompatibilityLevel;
import io.quotaflow.schemas.registry.SchemaMetadata;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StoreCodecTest {

  @Test
  void schemaEntryRoundTripsInConfluentsLayout() {
    SchemaMetadata registration = new SchemaMetadata("samples-value", 2, 7, TestSchemas.v1("Sample"));
    StoreCodec.Encoded encoded = StoreCodec.encode(new StoreEntry.SchemaRegistered(registration));

    assertThat(encoded.key()).isEqualTo("{\"keytype\":\"SCHEMA\",\"subject\":\"samples-value\",\"version\":2,\"magic\":1}");
    assertThat(encoded.value()).contains("\"id\":7", "\"deleted\":false");
    assertThat(StoreCodec.decode(encoded.key(), encoded.value(), "t-0@0"))
        .contains(new StoreEntry.SchemaRegistered(registration));
  }

  @Test
  void globalAndSubjectLevelsHaveDistinctKeys() {
    StoreCodec.Encoded global = StoreCodec.encode(new StoreEntry.CompatibilitySet(null, CompatibilityLevel.FULL));
    StoreCodec.Encoded subject = StoreCodec.encode(new StoreEntry.CompatibilitySet("s", CompatibilityLevel.NONE));

    assertThat(global.key()).isEqualTo("{\"keytype\":\"CONFIG\",\"subject\":null,\"magic\":0}");
    assertThat(subject.key()).isEqualTo("{\"keytype\":\"CONFIG\",\"subject\":\"s\",\"magic\":0}");
    assertThat(StoreCodec.decode(global.key(), global.value(), "x"))
        .contains(new StoreEntry.CompatibilitySet(null, CompatibilityLevel.FULL));
    assertThat(StoreCodec.decode(subject.key(), subject.value(), "x"))
        .contains(new StoreEntry.CompatibilitySet("s", CompatibilityLevel.NONE));
  }

  @Test
  void recordsThisRegistryDoesNotApplyAreSkipped() {
    assertThat(StoreCodec.decode("{\"keytype\":\"NOOP\",\"magic\":0}", "{}", "x")).isEqualTo(Optional.empty());
    assertThat(StoreCodec.decode("{\"keytype\":\"SCHEMA\",\"subject\":\"s\",\"version\":1,\"magic\":1}", null, "x")).isEmpty();
  }

  @Test
  void unreadableRecordsStopTheReplayNamingWhere() {
    assertThatThrownBy(() -> StoreCodec.decode("{\"keytype\":\"SCHEMA\"}", "{\"subject\":\"s\"}", "_schemas-0@12"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("_schemas-0@12").hasMessageContaining("version");
    assertThatThrownBy(() -> StoreCodec.decode("not json", "{}", "_schemas-0@13"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("_schemas-0@13");
  }
}
