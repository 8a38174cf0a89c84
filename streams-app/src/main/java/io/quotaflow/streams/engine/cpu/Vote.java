package io.quotaflow.streams.engine.cpu;

/** One tick's vote: smoothed usage against the soft limit in force at that tick. */
public enum Vote {
  DECREASE(-1),
  KEEP(0),
  INCREASE(1);

  private final int value;

  Vote(int value) {
    this.value = value;
  }

  /** -1, 0 or +1: what the vote adds to the window's sum. */
  public int value() {
    return value;
  }

  public static Vote ofValue(int value) {
    return switch (value) {
      case -1 -> DECREASE;
      case 0 -> KEEP;
      case 1 -> INCREASE;
      default -> throw new IllegalArgumentException("a vote is -1, 0 or +1, was " + value);
    };
  }
}
