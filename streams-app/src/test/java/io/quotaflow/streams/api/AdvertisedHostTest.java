package io.quotaflow.streams.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AdvertisedHostTest {

  @Test
  void anExplicitHostWinsThenASpecificBindAddressThenTheHostName() {
    assertThat(AdvertisedHost.resolve("streams-1.example", "0.0.0.0")).isEqualTo("streams-1.example");
    assertThat(AdvertisedHost.resolve(null, "10.0.0.7")).isEqualTo("10.0.0.7");
    assertThat(AdvertisedHost.resolve(" ", "127.0.0.1")).isEqualTo("127.0.0.1");
    assertThat(AdvertisedHost.resolve(null, "0.0.0.0")).isNotBlank().isNotEqualTo("0.0.0.0");
    assertThat(AdvertisedHost.resolve("", "::")).isNotBlank().isNotEqualTo("::");
  }
}
