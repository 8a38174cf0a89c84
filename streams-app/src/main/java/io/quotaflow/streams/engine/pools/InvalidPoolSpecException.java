package io.quotaflow.streams.engine.pools;

import java.util.List;

/** A pool configuration the engine refuses; the message lists every problem, one per line. */
public final class InvalidPoolSpecException extends IllegalArgumentException {

  private final List<String> errors;

  public InvalidPoolSpecException(List<String> errors) {
    super("invalid pool configuration:\n  " + String.join("\n  ", errors));
    this.errors = List.copyOf(errors);
  }

  public List<String> errors() {
    return errors;
  }
}
