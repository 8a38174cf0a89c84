package io.quotaflow.testharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

class HarnessSourceTest {

  @Test
  void nothingSetMeansTheEmbeddedPair() {
    assertThat(HarnessSource.fromEnvironment(Map.of())).isEqualTo(new HarnessSource.Embedded());
    assertThat(HarnessSource.fromEnvironment(Map.of("QUOTAFLOW_TEST_KAFKA", "embedded"))).isEqualTo(new HarnessSource.Embedded());
  }

  @Test
  void bootstrapAndRegistryMeanAnExternalPair() {
    Map<String, String> env = Map.of("QUOTAFLOW_TEST_BOOTSTRAP", "kafka:9092", "QUOTAFLOW_TEST_REGISTRY", "http://registry:8081");
    assertThat(HarnessSource.fromEnvironment(env)).isEqualTo(new HarnessSource.External("kafka:9092", "http://registry:8081"));
  }

  @Test
  void anExternalBrokerWithoutARegistryIsRefused() {
    assertThatThrownBy(() -> HarnessSource.fromEnvironment(Map.of("QUOTAFLOW_TEST_BOOTSTRAP", "kafka:9092")))
        .isInstanceOf(ExtensionConfigurationException.class)
        .hasMessageContaining("QUOTAFLOW_TEST_REGISTRY");
    assertThatThrownBy(() -> HarnessSource.fromEnvironment(Map.of("QUOTAFLOW_TEST_KAFKA", "external")))
        .isInstanceOf(ExtensionConfigurationException.class)
        .hasMessageContaining("QUOTAFLOW_TEST_BOOTSTRAP");
  }

  @Test
  void testcontainersMeansTheProjectsImageAndFailsWithoutDockerUnlessToldToSkip() {
    assertThat(HarnessSource.fromEnvironment(Map.of("QUOTAFLOW_TEST_KAFKA", "testcontainers")))
        .isEqualTo(new HarnessSource.Container("quotaflow:dev", false));
    assertThat(HarnessSource.fromEnvironment(Map.of("QUOTAFLOW_TEST_KAFKA", "testcontainers",
        "QUOTAFLOW_TEST_IMAGE", "registry.example/quotaflow:1.2", "QUOTAFLOW_TEST_WITHOUT_DOCKER", "skip")))
        .isEqualTo(new HarnessSource.Container("registry.example/quotaflow:1.2", true));
  }

  @Test
  void anUnknownWithoutDockerChoiceIsRefused() {
    assertThatThrownBy(() -> HarnessSource.fromEnvironment(Map.of("QUOTAFLOW_TEST_KAFKA", "testcontainers",
        "QUOTAFLOW_TEST_WITHOUT_DOCKER", "ignore")))
        .isInstanceOf(ExtensionConfigurationException.class)
        .hasMessageContaining("fail").hasMessageContaining("skip");
  }

  @Test
  void anUnknownModeIsRefusedListingTheKnownOnes() {
    assertThatThrownBy(() -> HarnessSource.fromEnvironment(Map.of("QUOTAFLOW_TEST_KAFKA", "docker")))
        .isInstanceOf(ExtensionConfigurationException.class)
        .hasMessageContaining("embedded").hasMessageContaining("external").hasMessageContaining("testcontainers");
  }
}
