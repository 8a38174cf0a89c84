package io.quotaflow.streams.topology;

import java.util.HashMap;
import java.util.Map;

/**
 * One instance of each string it was shown, for the fields that many tasks have in common (node, operation, pool,
 * reason). A decoded record holds its own copy of every string, and a processor holds many decoded records at once
 * (the task states in its memo and waiting for the commit, the gates' task specs): at 100,000 tasks those copies
 * were most of the heap per task. Not for what is unique per task (its id): that would only fill the table.
 *
 * <p>Bounded: past {@link #MAX_STRINGS} it starts over, so values that come and go (the operations of finished
 * jobs) do not pile up; starting over only loses sharing. Single-threaded: one per processor.
 */
final class SharedStrings {

  /** Far more than one partition's nodes, operations, pools and reasons at a time. */
  static final int MAX_STRINGS = 16_384;

  private final Map<String, String> strings = new HashMap<>();

  /** The instance held for a string equal to {@code value}, which becomes it if none is; null stays null. */
  String of(String value) {
    if (value == null) {
      return null;
    }
    String held = strings.get(value);
    if (held != null) {
      return held;
    }
    if (strings.size() >= MAX_STRINGS) {
      strings.clear();
    }
    strings.put(value, value);
    return value;
  }

  /** How many strings it holds. */
  int size() {
    return strings.size();
  }
}
