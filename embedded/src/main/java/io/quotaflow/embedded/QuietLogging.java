package io.quotaflow.embedded;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.util.List;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Keeps the in-process broker quiet: its INFO logging (every config value, every partition
 * change) would drown what tests and {@code quotaflow broker} print. When Logback is the SLF4J
 * provider, Kafka's loggers that have no level of their own are set to WARN, or to
 * {@value #LEVEL_ENV} when that is set. A level set in a Logback configuration always wins. With
 * another provider nothing is changed: its own configuration decides.
 */
final class QuietLogging {
  static final String LEVEL_ENV = "QUOTAFLOW_KAFKA_LOG_LEVEL";
  private static final List<String> KAFKA_LOGGERS = List.of("kafka", "org.apache.kafka", "state.change.logger");

  private QuietLogging() {}

  static void apply() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (isLogback(factory)) {
      Logback.quiet(factory, System.getenv().getOrDefault(LEVEL_ENV, "WARN"));
    }
  }

  private static boolean isLogback(ILoggerFactory factory) {
    try {
      return Class.forName("ch.qos.logback.classic.LoggerContext").isInstance(factory);
    } catch (ClassNotFoundException e) {
      return false; // Logback is optional: another provider configures itself
    }
  }

  /** Touches Logback classes only when Logback is present (loaded lazily, after the check above). */
  private static final class Logback {
    static void quiet(ILoggerFactory factory, String levelName) {
      Level level = Level.toLevel(levelName, Level.WARN);
      LoggerContext context = (LoggerContext) factory;
      for (String name : KAFKA_LOGGERS) {
        Logger logger = context.getLogger(name);
        if (logger.getLevel() == null) {
          logger.setLevel(level);
        }
      }
    }
  }
}
