package io.quotaflow.streams.engine.memory;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Learned memory profiles per operation: each finished task's mean usage moves the normal, its maximum the peak,
 * by an exponentially weighted average, so recent runs count most and one odd run does not rewrite the profile.
 */
public final class ProfileBook implements ProfileLookup {

  /** Weight of the newest run: after about five runs an old behaviour has faded below a fifth. */
  public static final double DEFAULT_RUN_WEIGHT = 0.3;

  private final double runWeight;
  private final TreeMap<String, MemoryProfile> profiles = new TreeMap<>();

  public ProfileBook() {
    this(DEFAULT_RUN_WEIGHT);
  }

  /** @param runWeight weight of the newest run in (0, 1]; 1 keeps only the last run */
  public ProfileBook(double runWeight) {
    if (!(runWeight > 0 && runWeight <= 1)) {
      throw new IllegalArgumentException("run weight must be in (0, 1], was " + runWeight);
    }
    this.runWeight = runWeight;
  }

  /** Continues from {@link #snapshot()}. */
  public static ProfileBook restore(double runWeight, Map<String, MemoryProfile> snapshot) {
    ProfileBook book = new ProfileBook(runWeight);
    book.profiles.putAll(snapshot);
    return book;
  }

  public Map<String, MemoryProfile> snapshot() {
    return Map.copyOf(profiles);
  }

  /** Folds one finished task into its operation's profile and returns the new profile, the value to broadcast. */
  public MemoryProfile learn(FinishedTaskUsage usage) {
    return profiles.merge(
        usage.operation(),
        new MemoryProfile(usage.meanBytes(), usage.maxBytes(), 1),
        (old, run) -> new MemoryProfile(
            blend(old.normalBytes(), run.normalBytes()), blend(old.peakBytes(), run.peakBytes()), old.runs() + 1));
  }

  @Override
  public Optional<MemoryProfile> profile(String operation) {
    return Optional.ofNullable(profiles.get(operation));
  }

  private long blend(long oldBytes, long newBytes) {
    return Math.max(1, Math.round(runWeight * newBytes + (1 - runWeight) * oldBytes));
  }
}
