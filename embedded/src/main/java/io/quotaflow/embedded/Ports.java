package io.quotaflow.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Free-port probing for listeners that must be named before they bind (the KRaft voter's port). */
public final class Ports {
  private Ports() {}

  /** A port that was free a moment ago on {@code host}; the caller binds it soon after (and retries on a race). */
  public static int free(String host) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(host, 0));
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on " + host, e);
    }
  }

  /**
   * Whether a listener can bind {@code port} on {@code host} right now. Probed as Kafka and the JDK's
   * HTTP server bind, with SO_REUSEADDR: a port whose only connections are in TIME_WAIT (a broker or
   * demo stopped a moment ago) is free for them, and so it is here.
   */
  public static boolean isFree(String host, int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(host, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** {@code preferred} when it is free, else any free port: how {@code quotaflow broker} picks 9092 and 8081. */
  public static int preferred(String host, int preferred) {
    return isFree(host, preferred) ? preferred : free(host);
  }
}
