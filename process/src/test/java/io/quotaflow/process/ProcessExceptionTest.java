package io.quotaflow.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class ProcessExceptionTest {

  @Test
  void theRootCauseIsAddedWhenItSaysSomethingNew() {
    Exception e = new IllegalStateException("Timed out waiting for a node", new IOException("wrapped",
        new ConnectException("Connection refused")));
    assertThat(ProcessException.rootMessage(e)).isEqualTo("Timed out waiting for a node (Connection refused)");
  }

  @Test
  void aRootCauseTheMessageAlreadyHoldsOrOneWithoutAMessageIsLeftOut() {
    assertThat(ProcessException.rootMessage(new IllegalStateException("refused: Connection refused",
        new ConnectException("Connection refused")))).isEqualTo("refused: Connection refused");
    assertThat(ProcessException.rootMessage(new IllegalStateException("failed", new NullPointerException())))
        .isEqualTo("failed");
    assertThat(ProcessException.rootMessage(new IllegalStateException("alone"))).isEqualTo("alone");
  }

  @Test
  void aFuturesWrapperGivesWayToItsCauseAndAWaitThatTimedOutSaysSo() {
    Exception kafka = new IllegalStateException("Timed out waiting for a node assignment. Call: listTopics");
    assertThat(ProcessException.rootMessage(new ExecutionException(kafka)))
        .isEqualTo("Timed out waiting for a node assignment. Call: listTopics");
    assertThat(ProcessException.rootMessage(new TimeoutException())).isEqualTo("timed out");
    assertThat(ProcessException.rootMessage(new IllegalStateException((String) null))).isEqualTo("IllegalStateException");
  }
}
