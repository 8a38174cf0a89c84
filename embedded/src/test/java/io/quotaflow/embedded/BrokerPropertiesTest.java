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
}
