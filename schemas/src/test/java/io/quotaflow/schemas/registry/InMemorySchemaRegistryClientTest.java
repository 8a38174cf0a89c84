package io.quotaflow.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemorySchemaRegistryClientTest {

  private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();

  @Test
  void registeringTheSameSchemaTwiceGivesOneIdAndOneVersion() {
    int first = registry.register("s-value", TestSchemas.base());
    int second = registry.register("s-value", TestSchemas.base());
    assertThat(second).isEqualTo(first);
    assertThat(registry.getAllVersions("s-value")).containsExactly(1);
  }

  @Test
  void idsAreGlobalAcrossSubjects() {
    int a = registry.register("a-value", TestSchemas.base());
    int b = registry.register("b-value", TestSchemas.base());
    int c = registry.register("b-value", TestSchemas.withOptionalField());
    assertThat(b).isEqualTo(a);
    assertThat(c).isNotEqualTo(a);
    assertThat(registry.getSchemaById(c)).isEqualTo(TestSchemas.withOptionalField());
    assertThat(registry.getAllSubjects()).containsExactly("a-value", "b-value");
  }

  @Test
  void versionsAndLookupsAnswerLikeTheRestApi() {
    registry.register("s-value", TestSchemas.base());
    int id2 = registry.register("s-value", TestSchemas.withOptionalField());
    SchemaMetadata latest = registry.getLatestSchemaMetadata("s-value");
    assertThat(latest.version()).isEqualTo(2);
    assertThat(latest.id()).isEqualTo(id2);
    assertThat(registry.getSchemaMetadata("s-value", 1).schema()).isEqualTo(TestSchemas.base());
    assertThat(registry.getId("s-value", TestSchemas.withOptionalField())).isEqualTo(id2);
    assertThat(registry.lookup("s-value", TestSchemas.withOptionalField()).version()).isEqualTo(2);
  }

  @Test
  void missingThingsRaiseTheirOwnErrors() {
    registry.register("s-value", TestSchemas.base());
    assertThatThrownBy(() -> registry.getSchemaById(999)).isInstanceOf(SchemaNotFoundException.class)
        .extracting("errorCode").isEqualTo(40403);
    assertThatThrownBy(() -> registry.getLatestSchemaMetadata("nope")).isInstanceOf(SubjectNotFoundException.class)
        .extracting("errorCode").isEqualTo(40401);
    assertThatThrownBy(() -> registry.getSchemaMetadata("s-value", 7)).isInstanceOf(VersionNotFoundException.class);
    assertThatThrownBy(() -> registry.getId("s-value", TestSchemas.withChangedType())).isInstanceOf(SchemaNotFoundException.class);
  }

  @Test
  void fullTransitiveRefusesAnIncompatibleSchemaWithTheReason() {
    registry.updateCompatibility("s-value", CompatibilityLevel.FULL_TRANSITIVE);
    registry.register("s-value", TestSchemas.base());
    assertThatThrownBy(() -> registry.register("s-value", TestSchemas.withRequiredField()))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("READER_FIELD_MISSING_DEFAULT_VALUE")
        .extracting("httpStatus").isEqualTo(409);
    assertThat(registry.testCompatibility("s-value", TestSchemas.withOptionalField())).isTrue();
    assertThat(registry.getAllVersions("s-value")).containsExactly(1);
  }

  @Test
  void transitiveLevelsCheckEveryVersionAndPlainLevelsOnlyTheLatest() {
    registry.updateCompatibility(null, CompatibilityLevel.NONE);
    registry.register("s-value", TestSchemas.base());
    registry.register("s-value", TestSchemas.withChangedType());
    // ts_ms long -> string -> long: compatible with the latest only.
    registry.updateCompatibility("s-value", CompatibilityLevel.FULL);
    assertThat(registry.testCompatibility("s-value", TestSchemas.withChangedType())).isTrue();
    registry.updateCompatibility("s-value", CompatibilityLevel.BACKWARD_TRANSITIVE);
    assertThat(registry.compatibilityProblems("s-value", TestSchemas.withChangedType())).isNotEmpty();
  }

  @Test
  void subjectLevelOverridesTheGlobalOne() {
    assertThat(registry.getCompatibility("s-value")).isEqualTo(CompatibilityLevel.BACKWARD);
    registry.updateCompatibility(null, CompatibilityLevel.NONE);
    registry.updateCompatibility("s-value", CompatibilityLevel.FULL_TRANSITIVE);
    assertThat(registry.getCompatibility("s-value")).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
    assertThat(registry.getCompatibility("other")).isEqualTo(CompatibilityLevel.NONE);
    assertThat(registry.getSubjectCompatibility("other")).isNull();
  }

  @Test
  void journalSeesEveryChangeAndReplayRebuildsTheSameState() {
    List<SchemaMetadata> log = new ArrayList<>();
    List<String> levels = new ArrayList<>();
    InMemorySchemaRegistryClient journaled = new InMemorySchemaRegistryClient(new InMemorySchemaRegistryClient.Journal() {
      @Override
      public void registered(SchemaMetadata registration) {
        log.add(registration);
      }

      @Override
      public void compatibilityChanged(String subject, CompatibilityLevel level) {
        levels.add(subject + "=" + level);
      }
    });
    journaled.updateCompatibility("s-value", CompatibilityLevel.FULL_TRANSITIVE);
    int id1 = journaled.register("s-value", TestSchemas.base());
    int id2 = journaled.register("t-value", TestSchemas.withOptionalField());
    journaled.register("s-value", TestSchemas.base());

    assertThat(log).hasSize(2);
    assertThat(levels).containsExactly("s-value=FULL_TRANSITIVE");

    InMemorySchemaRegistryClient rebuilt = new InMemorySchemaRegistryClient();
    log.forEach(rebuilt::replay);
    log.forEach(rebuilt::replay); // a replay that sees an entry twice changes nothing
    rebuilt.replayCompatibility("s-value", CompatibilityLevel.FULL_TRANSITIVE);
    assertThat(rebuilt.getId("s-value", TestSchemas.base())).isEqualTo(id1);
    assertThat(rebuilt.getId("t-value", TestSchemas.withOptionalField())).isEqualTo(id2);
    assertThat(rebuilt.getAllVersions("s-value")).containsExactly(1);
    assertThat(rebuilt.register("u-value", TestSchemas.withRequiredField())).isGreaterThan(id2);
  }

  @Test
  void aFailingJournalLeavesNoTrace() {
    InMemorySchemaRegistryClient failing = new InMemorySchemaRegistryClient(new InMemorySchemaRegistryClient.Journal() {
      @Override
      public void registered(SchemaMetadata registration) {
        throw new IllegalStateException("store down");
      }

      @Override
      public void compatibilityChanged(String subject, CompatibilityLevel level) {}
    });
    assertThatThrownBy(() -> failing.register("s-value", TestSchemas.base())).hasMessageContaining("store down");
    assertThat(failing.getAllSubjects()).isEmpty();
  }
}
