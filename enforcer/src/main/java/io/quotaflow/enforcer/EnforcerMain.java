package io.quotaflow.enforcer;

import io.quotaflow.process.ProcessCommandLine;

/**
 * The enforcer as a process of its own, without the {@code quotaflow} jar's other commands:
 * {@code java -cp quotaflow.jar io.quotaflow.enforcer.EnforcerMain --node n1 ...}. It runs the same
 * picocli command as {@code quotaflow enforcer} ({@link EnforcerCommand}: same flags, environment
 * variables, help and exit codes).
 */
public final class EnforcerMain {

  private EnforcerMain() {}

  public static void main(String[] args) {
    ProcessCommandLine.main(new EnforcerCommand(), args);
  }
}
