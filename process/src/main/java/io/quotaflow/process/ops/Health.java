package io.quotaflow.process.ops;

/**
 * What {@code /health} answers.
 *
 * @param live the process is working (its threads are not dead)
 * @param ready it is doing its job (connected, assigned, restored)
 * @param stalenessMs age of the newest record it handled, ms; -1 before the first
 * @param detail a short human-readable state, e.g. the Kafka Streams state
 */
public record Health(boolean live, boolean ready, long stalenessMs, String detail) {

  String toJson() {
    return "{\"live\":" + live + ",\"ready\":" + ready + ",\"staleness_ms\":" + stalenessMs + ",\"detail\":\""
        + detail.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
  }
}
