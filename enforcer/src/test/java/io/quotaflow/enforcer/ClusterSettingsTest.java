package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.Enforcement;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {

  static ClusterConfig config(String cluster, Enforcement enforcement) {
    return ClusterConfig.newBuilder().setCluster(cluster).setEnforcement(enforcement).setFreezeLeaseMs(60_000).build();
  }

  @Test
  void withoutAConfigTheDefaultsAreInForce() {
    ClusterSettings settings = new ClusterSettings();
    assertThat(settings.enforcement()).isEqualTo(Enforcement.ON);
    assertThat(settings.freezeLeaseMs()).isEqualTo(180_000);
  }

  @Test
  void theNewestRecordWinsWhateverItsKey() {
    ClusterSettings settings = new ClusterSettings();
    settings.accept("main", config("main", Enforcement.OFF));
    settings.accept("other", config("other", Enforcement.DRY_RUN));
    assertThat(settings.enforcement()).isEqualTo(Enforcement.DRY_RUN);
    settings.accept("main", config("main", Enforcement.ON));
    assertThat(settings.enforcement()).isEqualTo(Enforcement.ON);
    assertThat(settings.freezeLeaseMs()).isEqualTo(60_000);
  }

  @Test
  void aTombstoneWithdrawsItsKey() {
    ClusterSettings settings = new ClusterSettings();
    settings.accept("a", config("a", Enforcement.OFF));
    settings.accept("b", config("b", Enforcement.DRY_RUN));
    settings.accept("b", null);
    assertThat(settings.enforcement()).isEqualTo(Enforcement.OFF);
    settings.accept("a", null);
    assertThat(settings.enforcement()).isEqualTo(Enforcement.ON);
  }
}
