package io.quotaflow.process.ops;

/** Asked on every {@code /health} request; must be cheap and thread-safe. */
@FunctionalInterface
public interface HealthCheck {
  Health check();
}
