package io.quotaflow.streams.topology;

import java.util.HashMap;
import java.util.Map;

/**
 * One instance of each value it was shown, for the fields that many tasks have in common (node, operation, pool,
 * reason, a spec's monitor settings). A decoded record holds its own copy of every field, and a processor holds many
 * decoded records at once (the task states in its memo and waiting for the commit, the gates' task specs): at
 * 100,000 tasks those copies were most of the heap per task. Not for what is unique per task (its id): that would
 * only fill the table. The values must not be changed once shown (the processors replace a record's fields, never
 * change a nested record in place).
 *
 * <p>Bounded: past {@link #MAX_VALUES} it starts over, so values that come and go (the operations of finished
 * jobs) do not pile up; starting over only loses sharing. Single-threaded: one per processor.
 */
final class SharedValues<T> {

  /** Far more than one partition's nodes, operations, pools, reasons or monitor settings at a time. */
  static final int MAX_VALUES = 16_384;

  private final Map<T, T> values = new HashMap<>();

  /** The instance held for a value equal to {@code value}, which becomes it if none is; null stays null. */
  T of(T value) {
    if (value == null) {
      return null;
    }
    T held = values.get(value);
    if (held != null) {
      return held;
    }
    if (values.size() >= MAX_VALUES) {
      values.clear();
    }
    values.put(value, value);
    return value;
  }

  /** How many values it holds. */
  int size() {
    return values.size();
  }
}
