package io.quotaflow.schemas.registry;

import org.apache.kafka.common.errors.RetriableException;

/**
 * The registry could not be reached, or answered 5xx, after every retry. Retriable by type: a
 * record that fails with it is not poison and must not go to the dead-letter queue.
 */
public final class RegistryUnavailableException extends RetriableException {
  public RegistryUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
