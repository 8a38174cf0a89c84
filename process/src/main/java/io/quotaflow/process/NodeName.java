package io.quotaflow.process;

import io.quotaflow.schemas.Ids;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The node id a process takes when none is given: this host's short name, made a valid id (DESIGN
 * "Safety"). Every node process (collector, enforcer, demo) derives it here, so that two processes
 * on one node agree on it without being told.
 */
public final class NodeName {

  private static final int MAX_LENGTH = 128;

  private NodeName() {}

  /** This host's short name as an id; empty when the host has no usable name. */
  public static Optional<String> ofThisHost() {
    return fromHostName(hostName());
  }

  /**
   * The part before the first dot, with every character an id may not hold replaced by '-' and cut
   * to the longest id; empty when nothing usable is left.
   */
  public static Optional<String> fromHostName(String hostName) {
    String shortName = hostName == null ? "" : hostName.strip();
    int dot = shortName.indexOf('.');
    if (dot >= 0) {
      shortName = shortName.substring(0, dot);
    }
    String id = shortName.replaceAll("[^A-Za-z0-9_:@-]", "-");
    if (id.length() > MAX_LENGTH) {
      id = id.substring(0, MAX_LENGTH);
    }
    return Ids.isValid(id) ? Optional.of(id) : Optional.empty();
  }

  /** The kernel's host name (what {@code hostname} prints), else the JVM's idea of it, else $HOSTNAME. */
  private static String hostName() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.US_ASCII).trim();
    } catch (IOException | SecurityException notLinux) {
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (IOException unknown) {
        return System.getenv().getOrDefault("HOSTNAME", "");
      }
    }
  }
}
