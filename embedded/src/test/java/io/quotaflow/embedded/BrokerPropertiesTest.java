package io.quotaflow.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BrokerPropertiesTest {

  @Test
  void aBrokerBoundToAllInterfacesAdvertisesTheGivenHostToClientsAndToTheQuorum() {
    BrokerSettings settings = BrokerSettings.defaults().withHost("0.0.0.0").withAdvertisedHost("kafka");
    Properties props = BrokerProperties.singleNode(Path.of("/data"), settings.host(), settings.clientHost(), 9092, 9093,
        Map.of());

    assertThat(props.getProperty("listeners")).isEqualTo("PLAINTEXT://0.0.0.0:9092,CONTROLLER://0.0.0.0:9093");
    assertThat(props.getProperty("advertised.listeners")).isEqualTo("PLAINTEXT://kafka:9092");
    assertThat(props.getProperty("controller.quorum.voters")).isEqualTo("1@kafka:9093");
  }

  @Test
  void withoutAnAdvertisedHostTheBoundHostIsAdvertised() {
    BrokerSettings settings = BrokerSettings.defaults().withHost("127.0.0.1");
    assertThat(settings.clientHost()).isEqualTo("127.0.0.1");
    assertThat(BrokerProperties.singleNode(Path.of("/data"), settings.host(), settings.clientHost(), 9092, 9093, Map.of())
        .getProperty("advertised.listeners")).isEqualTo("PLAINTEXT://127.0.0.1:9092");
  }

  @Test
  void aBlankAdvertisedHostIsRefused() {
    assertThatThrownBy(() -> BrokerSettings.defaults().withAdvertisedHost(" "))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("advertised host");
  }

  @Test
  void aSecuredBrokerServesSaslSslToClientsKeepsItsControllerPlaintextAndAuthorizes() {
    BrokerSecurity security = BrokerSecurity.scram(Path.of("/tls/server.p12"), Path.of("/tls/trust.p12"), "pw", "admin",
        Map.of("admin", "admin-pw", "collector", "c-pw"));
    Properties props = BrokerProperties.singleNode(Path.of("/data"), "localhost", "localhost", 9092, 9093, Map.of(), security);

    assertThat(props.getProperty("listeners")).isEqualTo("SASL_SSL://localhost:9092,CONTROLLER://localhost:9093");
    assertThat(props.getProperty("listener.security.protocol.map")).isEqualTo("SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT");
    assertThat(props.getProperty("inter.broker.listener.name")).isEqualTo("SASL_SSL");
    assertThat(props.getProperty("sasl.enabled.mechanisms")).isEqualTo("SCRAM-SHA-512");
    assertThat(props.getProperty("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config")).contains("username=\"admin\"");
    assertThat(props.getProperty("authorizer.class.name")).isEqualTo("org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    assertThat(props.getProperty("super.users")).isEqualTo("User:admin;User:ANONYMOUS");
    assertThat(security.scramArguments()).containsExactly("SCRAM-SHA-512=[name=admin,password=admin-pw]",
        "SCRAM-SHA-512=[name=collector,password=c-pw]");
    assertThat(security.clientConfig("collector")).containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("ssl.truststore.location", "/tls/trust.p12");
  }

  @Test
  void aSuperUserWhoIsNoUserOrAPasswordTheFormatterCannotParseIsRefused() {
    assertThatThrownBy(() -> BrokerSecurity.scram(Path.of("k"), Path.of("t"), "pw", "root", Map.of("admin", "x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("super user root");
    assertThatThrownBy(() -> BrokerSecurity.scram(Path.of("k"), Path.of("t"), "pw", "admin", Map.of("admin", "a,b]")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[A-Za-z0-9._-]");
  }
}
