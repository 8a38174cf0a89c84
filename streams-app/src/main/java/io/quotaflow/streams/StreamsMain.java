package io.quotaflow.streams;

import io.quotaflow.process.ProcessCommandLine;

/**
 * The streams app as a process of its own, without the {@code quotaflow} command:
 * {@code java -cp quotaflow.jar io.quotaflow.streams.StreamsMain --bootstrap ...}. It runs the same
 * picocli command as {@code quotaflow streams} ({@link StreamsCommand}: same flags, environment
 * variables, help and exit codes) until SIGTERM or Ctrl-C.
 */
public final class StreamsMain {

  private StreamsMain() {}

  public static void main(String[] args) {
    ProcessCommandLine.main(new StreamsCommand(), args);
  }
}
