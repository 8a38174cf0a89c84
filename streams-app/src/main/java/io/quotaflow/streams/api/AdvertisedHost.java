package io.quotaflow.streams.api;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Set;

/**
 * The host this instance gives other instances in {@code application.server}: where they forward
 * live-state requests for keys it owns. A wildcard bind address reaches nobody, so it is replaced
 * by the machine's host name (in docker compose, the container's name on the network).
 */
public final class AdvertisedHost {

  private static final Set<String> WILDCARDS = Set.of("", "0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0");

  private AdvertisedHost() {}

  /**
   * @param advertised what the operator set ({@code --advertised-host}); null or blank: not set
   * @param bindHost the address the HTTP server listens on ({@code --http-host})
   */
  public static String resolve(String advertised, String bindHost) {
    if (advertised != null && !advertised.isBlank()) {
      return advertised.trim();
    }
    if (bindHost != null && !WILDCARDS.contains(bindHost.trim())) {
      return bindHost.trim();
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      // The host name does not resolve here, so no peer could resolve it either: only a single instance works.
      return "localhost";
    }
  }
}
