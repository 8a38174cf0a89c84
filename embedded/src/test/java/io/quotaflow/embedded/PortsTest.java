package io.quotaflow.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class PortsTest {

  private static final String HOST = "127.0.0.1";

  @Test
  void aPortInUseIsNotFree() throws IOException {
    try (ServerSocket listening = new ServerSocket()) {
      listening.bind(new InetSocketAddress(HOST, 0));
      assertThat(Ports.isFree(HOST, listening.getLocalPort())).isFalse();
      assertThat(Ports.preferred(HOST, listening.getLocalPort())).isNotEqualTo(listening.getLocalPort());
    }
  }

  @Test
  void aPortWithOnlyTimeWaitConnectionsIsFree() throws IOException {
    int port = portLeftInTimeWait();
    // The situation a broker stopped a moment ago leaves: a bind without SO_REUSEADDR is refused ...
    try (ServerSocket strict = new ServerSocket()) {
      strict.setReuseAddress(false);
      assertThatThrownBy(() -> strict.bind(new InetSocketAddress(HOST, port))).isInstanceOf(BindException.class);
    }
    // ... yet Kafka and the registry bind it (with SO_REUSEADDR), so the probe calls it free.
    assertThat(Ports.isFree(HOST, port)).isTrue();
    assertThat(Ports.preferred(HOST, port)).isEqualTo(port);
  }

  /** A port whose listener is closed and whose one accepted connection the server side closed first (TIME_WAIT). */
  private static int portLeftInTimeWait() throws IOException {
    try (ServerSocket listening = new ServerSocket()) {
      listening.setReuseAddress(true);
      listening.bind(new InetSocketAddress(HOST, 0));
      try (Socket client = new Socket(HOST, listening.getLocalPort())) {
        Socket accepted = listening.accept();
        accepted.close(); // the side that closes first holds TIME_WAIT, on the listener's port
        assertThat(client.getInputStream().read()).isEqualTo(-1);
      }
      return listening.getLocalPort();
    }
  }
}
