package io.quotaflow.collector;

import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.schemas.Ids;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** How the collector's command-line values become settings; shared by both of its entry points. */
public final class CollectorFlags {

  private CollectorFlags() {}

  /**
   * {@code --parent}: empty for the default ({@code quotaflow} under this process's own group in
   * each hierarchy), a name for that name under the own group, or an absolute cgroup path (from
   * each hierarchy's root) such as {@code /batch/quotaflow}.
   */
  public static CgroupParent parent(String value) throws IOException {
    if (value == null || value.isBlank()) {
      return CgroupParent.defaultParent();
    }
    String trimmed = value.trim();
    if (trimmed.startsWith("/")) {
      return CgroupParent.at(trimmed);
    }
    if (trimmed.contains("/")) {
      throw new IllegalArgumentException("--parent is a group name under this process's own group, or an"
          + " absolute path starting with '/': " + trimmed);
    }
    return CgroupParent.underOwnGroup(trimmed);
  }

  /** The node id when none is given: the host name up to its first dot. */
  public static String defaultNode() {
    String host;
    try {
      host = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.US_ASCII).trim();
    } catch (IOException e) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (IOException unknown) {
        throw new IllegalArgumentException("cannot tell this host's name: give --node");
      }
    }
    int dot = host.indexOf('.');
    String node = dot > 0 ? host.substring(0, dot) : host;
    if (!Ids.isValid(node)) {
      throw new IllegalArgumentException("the host name '" + host + "' is not a valid node id: give --node");
    }
    return node;
  }
}
