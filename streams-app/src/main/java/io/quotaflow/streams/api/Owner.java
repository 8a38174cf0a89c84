package io.quotaflow.streams.api;

import org.apache.kafka.streams.state.HostInfo;

/** The instance holding the active copy of the store partition a request reads, and that partition. */
record Owner(HostInfo host, int partition) {

  String address() {
    return host.host() + ":" + host.port();
  }
}
