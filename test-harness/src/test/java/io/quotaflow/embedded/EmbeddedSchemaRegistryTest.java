package io.quotaflow.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.registry.CompatibilityLevel;
import io.quotaflow.schemas.registry.IncompatibleSchemaException;
import io.quotaflow.schemas.registry.RegistryClientConfig;
import io.quotaflow.schemas.registry.RestSchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaMetadata;
import io.quotaflow.schemas.registry.SchemaNotFoundException;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryException;
import io.quotaflow.schemas.registry.SubjectNotFoundException;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** The registry through the REST client other modules use, against the shared embedded (or external) pair. */
@WithKafka
class EmbeddedSchemaRegistryTest {

  @Test
  void registeredSchemaIsServedByIdVersionAndLookup(KafkaEnv kafka) {
    SchemaRegistryClient client = kafka.registryClient();
    String subject = TestTopics.uniqueName("readings") + "-value";
    Schema v1 = TestSchemas.v1("Reading");
    Schema v2 = TestSchemas.v2WithDefault("Reading");

    int id1 = client.register(subject, v1);
    int id2 = client.register(subject, v2);

    SchemaRegistryClient fresh = kafka.registryClient(); // no cache: every answer comes from the server
    assertThat(id2).isNotEqualTo(id1);
    assertThat(fresh.getSchemaById(id1)).isEqualTo(v1);
    assertThat(fresh.getAllVersions(subject)).containsExactly(1, 2);
    assertThat(fresh.getAllSubjects()).contains(subject);
    assertThat(fresh.getLatestSchemaMetadata(subject)).isEqualTo(new SchemaMetadata(subject, 2, id2, v2));
    assertThat(fresh.getSchemaMetadata(subject, 1)).isEqualTo(new SchemaMetadata(subject, 1, id1, v1));
    assertThat(fresh.getId(subject, v1)).isEqualTo(id1);
    assertThat(fresh.register(subject, v1)).as("registering again is idempotent").isEqualTo(id1);
    assertThat(fresh.getAllVersions(subject)).containsExactly(1, 2);
  }

  @Test
  void sameSchemaUnderAnotherSubjectGetsTheSameGlobalId(KafkaEnv kafka) {
    SchemaRegistryClient client = kafka.registryClient();
    Schema schema = TestSchemas.v1("Shared" + TestTopics.uniqueName("x").replaceAll("[^A-Za-z0-9]", ""));
    int first = client.register(TestTopics.uniqueName("a") + "-value", schema);
    int second = kafka.registryClient().register(TestTopics.uniqueName("b") + "-value", schema);
    assertThat(second).isEqualTo(first);
  }

  @Test
  void incompatibleSchemaIsRefusedWith409AtTheConfiguredLevel(KafkaEnv kafka) {
    SchemaRegistryClient client = kafka.registryClient();
    String subject = TestTopics.uniqueName("specs") + "-value";
    client.register(subject, TestSchemas.v1("Spec"));
    client.updateCompatibility(subject, CompatibilityLevel.FULL_TRANSITIVE);

    assertThat(client.testCompatibility(subject, TestSchemas.v2WithoutDefault("Spec"))).isFalse();
    assertThat(client.testCompatibility(subject, TestSchemas.v2WithDefault("Spec"))).isTrue();
    assertThatThrownBy(() -> client.register(subject, TestSchemas.v2WithoutDefault("Spec")))
        .isInstanceOfSatisfying(IncompatibleSchemaException.class, e -> {
          assertThat(e.httpStatus()).isEqualTo(409);
          assertThat(e.errorCode()).isEqualTo(IncompatibleSchemaException.ERROR_CODE);
          assertThat(e.getMessage()).contains("memory_bytes");
        });
    assertThat(client.getAllVersions(subject)).containsExactly(1);

    RegistryHttp.Answer verbose = RegistryHttp.call("POST", kafka.registryUrl() + "/compatibility/subjects/" + subject
        + "/versions/latest?verbose=true", RegistryHttp.schemaBody(TestSchemas.v2WithoutDefault("Spec").toString()));
    assertThat(verbose.status()).isEqualTo(200);
    assertThat(verbose.json().get("is_compatible").asBoolean()).isFalse();
    assertThat(verbose.json().get("messages").toString()).contains("memory_bytes");
  }

  @Test
  void levelNoneAcceptsWhatBackwardRefuses(KafkaEnv kafka) {
    SchemaRegistryClient client = kafka.registryClient();
    String subject = TestTopics.uniqueName("loose") + "-value";
    client.register(subject, TestSchemas.v1("Loose"));
    assertThat(client.getCompatibility(subject)).as("global default").isEqualTo(CompatibilityLevel.BACKWARD);
    assertThat(client.testCompatibility(subject, TestSchemas.v2WithoutDefault("Loose"))).isFalse();

    client.updateCompatibility(subject, CompatibilityLevel.NONE);

    assertThat(kafka.registryClient().getCompatibility(subject)).isEqualTo(CompatibilityLevel.NONE);
    assertThat(client.register(subject, TestSchemas.v2WithoutDefault("Loose"))).isPositive();
    assertThat(client.getAllVersions(subject)).containsExactly(1, 2);
  }

  @Test
  void concurrentRegistrationOfOneSchemaGivesOneIdAndOneVersion(KafkaEnv kafka) throws Exception {
    String subject = TestTopics.uniqueName("race") + "-value";
    Schema schema = TestSchemas.v1("Race" + subject.replaceAll("[^A-Za-z0-9]", ""));
    int clients = 12;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<Integer>> ids = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        SchemaRegistryClient own = kafka.registryClient(); // separate caches: every call reaches the server
        Callable<Integer> register = () -> {
          go.await();
          return own.register(subject, schema);
        };
        ids.add(pool.submit(register));
      }
      go.countDown();
      Set<Integer> distinct = ConcurrentHashMap.newKeySet();
      for (Future<Integer> id : ids) {
        distinct.add(id.get());
      }
      assertThat(distinct).hasSize(1);
      assertThat(kafka.registryClient().getAllVersions(subject)).containsExactly(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void unknownSubjectsIdsAndSchemasAreConfluentErrors(KafkaEnv kafka) {
    SchemaRegistryClient client = kafka.registryClient();
    String missing = TestTopics.uniqueName("missing") + "-value";
    assertThatThrownBy(() -> client.getLatestSchemaMetadata(missing)).isInstanceOf(SubjectNotFoundException.class);
    assertThatThrownBy(() -> client.getSchemaById(Integer.MAX_VALUE)).isInstanceOf(SchemaNotFoundException.class);

    String subject = TestTopics.uniqueName("known") + "-value";
    client.register(subject, TestSchemas.v1("Known"));
    assertThatThrownBy(() -> client.getId(subject, TestSchemas.v2WithDefault("Known")))
        .isInstanceOf(SchemaNotFoundException.class);
    assertThat(client.testCompatibility(missing, TestSchemas.v1("Anything"))).as("a new subject accepts anything").isTrue();
  }

  @Test
  void basicAuthIsRequiredWhenConfigured(KafkaEnv kafka) {
    RegistrySettings settings = RegistrySettings.forBroker(kafka.bootstrapServers())
        .withTopic(TestTopics.uniqueName("_schemas-auth"))
        .withBasicAuth("ops:s3cret");
    try (EmbeddedSchemaRegistry secured = EmbeddedSchemaRegistry.start(settings)) {
      RegistryHttp.Answer anonymous = RegistryHttp.get(secured.url() + "/subjects");
      assertThat(anonymous.status()).isEqualTo(401);
      assertThat(anonymous.json().get("error_code").asInt()).isEqualTo(401);

      SchemaRegistryClient wrong = new RestSchemaRegistryClient(RegistryClientConfig.of(secured.url()).withBasicAuth("ops:guess"));
      assertThatThrownBy(wrong::getAllSubjects).isInstanceOfSatisfying(SchemaRegistryException.class,
          e -> assertThat(e.httpStatus()).isEqualTo(401));

      SchemaRegistryClient right = new RestSchemaRegistryClient(RegistryClientConfig.of(secured.url()).withBasicAuth("ops:s3cret"));
      int id = right.register("secured-value", TestSchemas.v1("Secured"));
      assertThat(right.getSchemaById(id)).isEqualTo(TestSchemas.v1("Secured"));
    }
  }
}
