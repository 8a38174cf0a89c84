package io.quotaflow.embedded;

import java.nio.file.Path;
import java.util.Map;

/**
 * How to start an {@link EmbeddedKafka}.
 *
 * @param dataDir where the broker keeps its logs and metadata; formatted on first use and reused
 *     afterwards, so topics and offsets survive a restart. Null: a temporary directory, deleted on close
 * @param host the host the listeners bind to (and advertise, unless {@code advertisedHost} is given)
 * @param advertisedHost the host clients are told to connect to, when it differs from the bound one: a
 *     broker bound to {@code 0.0.0.0} in a container is reached through a name or a mapped port
 *     outside it. Null: {@code host}
 * @param port the client (PLAINTEXT, or SASL_SSL with {@code security}) port; 0 picks a free one
 * @param controllerPort the KRaft controller port; 0 picks a free one
 * @param overrides broker properties that win over the single-node defaults
 * @param security SASL_SSL with SCRAM users and ACLs on the client port; null: PLAINTEXT, no authorizer
 */
public record BrokerSettings(Path dataDir, String host, String advertisedHost, int port, int controllerPort,
    Map<String, String> overrides, BrokerSecurity security) {

  public BrokerSettings {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("broker host must not be blank");
    }
    if (advertisedHost != null && advertisedHost.isBlank()) {
      throw new IllegalArgumentException("broker advertised host must not be blank (null: the bound host)");
    }
    requirePort("broker port", port);
    requirePort("controller port", controllerPort);
    if (port != 0 && port == controllerPort) {
      throw new IllegalArgumentException("broker and controller ports must differ, both are " + port);
    }
    overrides = Map.copyOf(overrides);
  }

  /** A temporary data directory, localhost, free ports. */
  public static BrokerSettings defaults() {
    return new BrokerSettings(null, "localhost", null, 0, 0, Map.of(), null);
  }

  public BrokerSettings withDataDir(Path dir) {
    return new BrokerSettings(dir, host, advertisedHost, port, controllerPort, overrides, security);
  }

  public BrokerSettings withHost(String newHost) {
    return new BrokerSettings(dataDir, newHost, advertisedHost, port, controllerPort, overrides, security);
  }

  public BrokerSettings withAdvertisedHost(String newAdvertisedHost) {
    return new BrokerSettings(dataDir, host, newAdvertisedHost, port, controllerPort, overrides, security);
  }

  /** The host clients connect to: the advertised one when given, else the bound one. */
  public String clientHost() {
    return advertisedHost != null ? advertisedHost : host;
  }

  public BrokerSettings withPort(int newPort) {
    return new BrokerSettings(dataDir, host, advertisedHost, newPort, controllerPort, overrides, security);
  }

  public BrokerSettings withControllerPort(int newPort) {
    return new BrokerSettings(dataDir, host, advertisedHost, port, newPort, overrides, security);
  }

  public BrokerSettings withOverrides(Map<String, String> newOverrides) {
    return new BrokerSettings(dataDir, host, advertisedHost, port, controllerPort, newOverrides, security);
  }

  /** A SASL_SSL client listener with SCRAM users and ACLs instead of PLAINTEXT. */
  public BrokerSettings withSecurity(BrokerSecurity newSecurity) {
    return new BrokerSettings(dataDir, host, advertisedHost, port, controllerPort, overrides, newSecurity);
  }

  private static void requirePort(String what, int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(what + " must be 0 (any free port) or 1..65535, was " + port);
    }
  }
}
