package io.quotaflow.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The wire-level API: paths, bodies, statuses, Confluent's error codes and content type, over raw HTTP. */
@WithKafka
class RegistryApiTest {
  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

  private String url;
  private String subject;
  private int id;

  @BeforeEach
  void registerOne(KafkaEnv kafka) {
    url = kafka.registryUrl();
    subject = TestTopics.uniqueName("api") + "-value";
    RegistryHttp.Answer registered = RegistryHttp.call("POST", url + "/subjects/" + subject + "/versions",
        RegistryHttp.schemaBody(TestSchemas.v1("Api").toString()));
    assertThat(registered.status()).isEqualTo(200);
    assertThat(registered.contentType()).isEqualTo(CONTENT_TYPE);
    id = registered.json().get("id").asInt();
  }

  @Test
  void readsAnswerInConfluentShapes() {
    assertThat(RegistryHttp.get(url + "/subjects").json().toString()).contains("\"" + subject + "\"");
    assertThat(RegistryHttp.get(url + "/subjects/" + subject + "/versions").json().toString()).isEqualTo("[1]");

    RegistryHttp.Answer latest = RegistryHttp.get(url + "/subjects/" + subject + "/versions/latest");
    assertThat(latest.json().get("subject").asText()).isEqualTo(subject);
    assertThat(latest.json().get("version").asInt()).isEqualTo(1);
    assertThat(latest.json().get("id").asInt()).isEqualTo(id);
    assertThat(latest.json().get("schema").asText()).isEqualTo(TestSchemas.v1("Api").toString());
    assertThat(RegistryHttp.get(url + "/subjects/" + subject + "/versions/1").json()).isEqualTo(latest.json());
    assertThat(RegistryHttp.get(url + "/subjects/" + subject + "/versions/-1").json()).isEqualTo(latest.json());
    assertThat(RegistryHttp.get(url + "/subjects/" + subject + "/versions/1/schema").body())
        .isEqualTo(TestSchemas.v1("Api").toString());

    RegistryHttp.Answer byId = RegistryHttp.get(url + "/schemas/ids/" + id);
    assertThat(byId.json().get("schema").asText()).isEqualTo(TestSchemas.v1("Api").toString());
    assertThat(byId.contentType()).isEqualTo(CONTENT_TYPE);
    assertThat(RegistryHttp.get(url + "/schemas/types").json().toString()).isEqualTo("[\"AVRO\"]");
    assertThat(RegistryHttp.get(url + "/").status()).isEqualTo(200);

    RegistryHttp.Answer lookup = RegistryHttp.call("POST", url + "/subjects/" + subject,
        RegistryHttp.schemaBody(TestSchemas.v1("Api").toString()));
    assertThat(lookup.json().get("id").asInt()).isEqualTo(id);
    assertThat(lookup.json().get("version").asInt()).isEqualTo(1);
  }

  @Test
  void missingThingsAre404WithConfluentCodes() {
    assertError(RegistryHttp.get(url + "/subjects/nope-" + subject + "/versions"), 404, 40401);
    assertError(RegistryHttp.get(url + "/subjects/" + subject + "/versions/7"), 404, 40402);
    assertError(RegistryHttp.get(url + "/schemas/ids/2147483647"), 404, 40403);
    assertError(RegistryHttp.call("POST", url + "/subjects/" + subject,
        RegistryHttp.schemaBody(TestSchemas.v2WithDefault("Api").toString())), 404, 40403);
    assertError(RegistryHttp.get(url + "/config/" + subject), 404, 40408);
    assertError(RegistryHttp.get(url + "/no/such/path"), 404, 404);
    assertError(RegistryHttp.call("DELETE", url + "/subjects/" + subject + "/versions", null), 405, 405);
  }

  @Test
  void invalidInputIs422Or400() {
    assertError(RegistryHttp.get(url + "/subjects/" + subject + "/versions/zero"), 422, 42202);
    assertError(RegistryHttp.call("POST", url + "/subjects/" + subject + "/versions", RegistryHttp.schemaBody("{\"type\":\"recrod\"}")),
        422, 42201);
    assertError(RegistryHttp.call("POST", url + "/subjects/" + subject + "/versions",
        "{\"schema\":\"\\\"string\\\"\",\"schemaType\":\"PROTOBUF\"}"), 422, 42201);
    assertError(RegistryHttp.call("PUT", url + "/config/" + subject, "{\"compatibility\":\"SIDEWAYS\"}"), 422, 42203);
    assertError(RegistryHttp.call("POST", url + "/subjects/" + subject + "/versions", "{not json"), 400, 400);
  }

  @Test
  void configIsGlobalOrPerSubject() {
    assertThat(RegistryHttp.get(url + "/config").json().get("compatibilityLevel").asText()).isEqualTo("BACKWARD");
    assertThat(RegistryHttp.get(url + "/config/" + subject + "?defaultToGlobal=true").json().get("compatibilityLevel").asText())
        .isEqualTo("BACKWARD");

    RegistryHttp.Answer set = RegistryHttp.call("PUT", url + "/config/" + subject, "{\"compatibility\":\"FULL_TRANSITIVE\"}");
    assertThat(set.status()).isEqualTo(200);
    assertThat(set.json().get("compatibility").asText()).isEqualTo("FULL_TRANSITIVE");

    assertThat(RegistryHttp.get(url + "/config/" + subject).json().get("compatibilityLevel").asText()).isEqualTo("FULL_TRANSITIVE");
    assertThat(RegistryHttp.get(url + "/config").json().get("compatibilityLevel").asText()).as("global unchanged").isEqualTo("BACKWARD");
  }

  @Test
  void compatibilityAgainstANumberedVersionChecksThatVersion() {
    String body = RegistryHttp.schemaBody(TestSchemas.v2WithoutDefault("Api").toString());
    RegistryHttp.Answer answer = RegistryHttp.call("POST", url + "/compatibility/subjects/" + subject + "/versions/1", body);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().get("is_compatible").asBoolean()).isFalse();
    assertThat(answer.json().has("messages")).as("messages only when verbose").isFalse();

    RegistryHttp.Answer compatible = RegistryHttp.call("POST", url + "/compatibility/subjects/" + subject + "/versions?verbose=true",
        RegistryHttp.schemaBody(TestSchemas.v2WithDefault("Api").toString()));
    assertThat(compatible.json().get("is_compatible").asBoolean()).isTrue();
    assertThat(compatible.json().get("messages")).isEmpty();
  }

  private static void assertError(RegistryHttp.Answer answer, int status, int errorCode) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(status);
    assertThat(answer.contentType()).isEqualTo(CONTENT_TYPE);
    assertThat(answer.json().get("error_code").asInt()).as(answer.body()).isEqualTo(errorCode);
    assertThat(answer.json().get("message").asText()).isNotBlank().doesNotContain("(HTTP ");
  }
}
