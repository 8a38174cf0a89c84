package io.quotaflow.cli.demo;

import io.quotaflow.schemas.Ids;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** The demo's node id: this host's short name, made a valid id (DESIGN "Safety"). */
public final class NodeName {

  private static final int MAX_LENGTH = 128;

  private NodeName() {}

  /** This host's short name as an id; {@code node} when the host has no usable name. */
  public static String ofThisHost() {
    try {
      return sanitise(InetAddress.getLocalHost().getHostName());
    } catch (UnknownHostException e) {
      return sanitise(System.getenv().getOrDefault("HOSTNAME", ""));
    }
  }

  /** The part before the first dot, with every character an id may not hold replaced by '-'. */
  public static String sanitise(String hostName) {
    String shortName = hostName == null ? "" : hostName.strip();
    int dot = shortName.indexOf('.');
    if (dot >= 0) {
      shortName = shortName.substring(0, dot);
    }
    String id = shortName.replaceAll("[^A-Za-z0-9_:@-]", "-");
    if (id.length() > MAX_LENGTH) {
      id = id.substring(0, MAX_LENGTH);
    }
    return Ids.isValid(id) ? id : "node";
  }
}
