package io.quotaflow.cli.demo;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import java.util.List;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * On a terminal the demo redraws its table in place, and log lines on the same screen would tear
 * it: there Quotaflow logs only warnings and Kafka only errors, unless {@code QUOTAFLOW_LOG_LEVEL}
 * or {@code QUOTAFLOW_KAFKA_LOG_LEVEL} ask for more. What the log would say about each decision
 * is in the table's last-action column.
 */
public final class DemoLogging {

  private static final List<String> KAFKA_LOGGERS = List.of("kafka", "org.apache.kafka", "state.change.logger");

  private DemoLogging() {}

  /** Call before the broker starts, so its own quieting finds the levels already set. */
  public static void quietForTerminal() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      return; // another SLF4J provider: its configuration decides
    }
    if (System.getenv("QUOTAFLOW_LOG_LEVEL") == null) {
      context.getLogger("io.quotaflow").setLevel(Level.WARN);
    }
    if (System.getenv("QUOTAFLOW_KAFKA_LOG_LEVEL") == null) {
      for (String name : KAFKA_LOGGERS) {
        context.getLogger(name).setLevel(Level.ERROR);
      }
    }
  }
}
