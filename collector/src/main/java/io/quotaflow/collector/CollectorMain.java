package io.quotaflow.collector;

import io.quotaflow.process.ProcessCommandLine;

/**
 * The collector as a process of its own, without the {@code quotaflow} command:
 * {@code java -cp quotaflow.jar io.quotaflow.collector.CollectorMain --node n1 --bootstrap ...}.
 * It runs the same picocli command as {@code quotaflow collector} ({@link CollectorCommand}: same
 * flags, environment variables, help and exit codes) until SIGTERM or Ctrl-C.
 */
public final class CollectorMain {

  private CollectorMain() {}

  public static void main(String[] args) {
    ProcessCommandLine.main(new CollectorCommand(), args);
  }
}
