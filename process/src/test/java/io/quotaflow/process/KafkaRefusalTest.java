package io.quotaflow.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.junit.jupiter.api.Test;

class KafkaRefusalTest {

  private static final Map<String, Object> SCRAM_USER = Map.of("security.protocol", "SASL_SSL",
      "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"collector\" password=\"x\";");

  @Test
  void aRefusalSeveralWrappersDeepIsOneLineNamingThePrincipalAndTheResource() {
    Throwable topic = new ExecutionException(new KafkaException("wrapped",
        new TopicAuthorizationException("Not authorized to access topics: [quotaflow.samples]", Set.of("quotaflow.samples"))));
    assertThat(KafkaRefusal.describe(topic, SCRAM_USER)).hasValue("User:collector is not authorized to use topic quotaflow.samples;"
        + " grant the ACLs docs/deployment.md \"ACLs per component\" lists");
    assertThat(KafkaRefusal.describe(GroupAuthorizationException.forGroupId("quotaflow-streams"), SCRAM_USER).orElseThrow())
        .startsWith("User:collector is not authorized to use consumer group quotaflow-streams;");
    assertThat(KafkaRefusal.describe(new KafkaException(new TransactionalIdAuthorizationException("failed")), SCRAM_USER).orElseThrow())
        .startsWith("User:collector is not authorized to use its transactional id");
    assertThat(KafkaRefusal.describe(new SaslAuthenticationException("invalid credentials"), SCRAM_USER))
        .hasValue("Kafka refused the login of User:collector: invalid credentials; check sasl.jaas.config");
  }

  @Test
  void otherFailuresAreNoRefusalAndKeepTheirMessage() {
    TimeoutException timeout = new TimeoutException("Timed out waiting for a node assignment");
    assertThat(KafkaRefusal.isRefusal(timeout)).isFalse();
    assertThat(KafkaRefusal.describe(timeout, SCRAM_USER)).isEmpty();
    assertThat(KafkaRefusal.message(timeout, SCRAM_USER)).isEqualTo("Timed out waiting for a node assignment");
  }

  @Test
  void withoutSaslThePrincipalIsAnonymousOrTheCertificates() {
    assertThat(KafkaRefusal.principal(Map.of())).isEqualTo("User:ANONYMOUS");
    assertThat(KafkaRefusal.principal(Map.of("security.protocol", "SSL"))).isEqualTo("the principal of the client certificate");
  }
}
