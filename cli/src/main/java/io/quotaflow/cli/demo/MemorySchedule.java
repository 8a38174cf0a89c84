package io.quotaflow.cli.demo;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How much anonymous memory a stepping allocator holds over its own progress: {@code normalMb}
 * while it rests, then up by {@code stepMb} every {@code stepPeriod} to {@code peakMb}, held there
 * for {@code hold}, and down again by the same steps; then the next cycle, {@code cycles} in all
 * (0: for ever), after which it stays at normal. The real allocator ({@link MemoryWorkload}) and
 * the simulator ({@link WorkloadSimulator}) both ask {@link #targetMbAt}, so both modes of the demo
 * run the same memory story.
 *
 * <p>Progress, not wall time: a frozen task does no work, so its schedule stands still while it is
 * frozen and resumes where it stopped, as a real batch task's memory follows its work.
 *
 * @param normalMb anonymous memory while resting, MiB
 * @param peakMb anonymous memory at the peak, MiB ({@code >= normalMb})
 * @param stepMb the size of one step, MiB
 * @param rest progress at normal before each climb
 * @param stepPeriod progress between two steps
 * @param hold progress spent at the peak
 * @param cycles climbs in all; 0 repeats for ever
 */
public record MemorySchedule(long normalMb, long peakMb, long stepMb, Duration rest, Duration stepPeriod,
    Duration hold, int cycles) {

  public MemorySchedule {
    if (normalMb < 0 || peakMb < normalMb) {
      throw new IllegalArgumentException("need 0 <= normal <= peak, was normal " + normalMb + " MiB, peak " + peakMb + " MiB");
    }
    if (stepMb <= 0) {
      throw new IllegalArgumentException("step must be > 0 MiB, was " + stepMb);
    }
    if (rest.isNegative() || hold.isNegative() || stepPeriod.isNegative() || stepPeriod.isZero()) {
      throw new IllegalArgumentException("rest and hold must be >= 0 and the step period > 0");
    }
    if (cycles < 0) {
      throw new IllegalArgumentException("cycles must be >= 0 (0: for ever), was " + cycles);
    }
  }

  /** Steps from normal to peak (the last one may be shorter than {@code stepMb}). */
  public long steps() {
    return (peakMb - normalMb + stepMb - 1) / stepMb;
  }

  /** Progress one climb, hold and descent take, the rest before it included. */
  public long cycleMs() {
    return rest.toMillis() + 2 * steps() * stepPeriod.toMillis() + hold.toMillis();
  }

  /** The memory to hold after {@code progressMs} of progress, in MiB. */
  public long targetMbAt(long progressMs) {
    long cycleMs = cycleMs();
    if (steps() == 0 || (cycles > 0 && progressMs >= cycles * cycleMs)) {
      return normalMb;
    }
    long t = Math.max(0, progressMs) % cycleMs - rest.toMillis();
    long periodMs = stepPeriod.toMillis();
    long climbMs = steps() * periodMs;
    if (t < 0) {
      return normalMb;
    }
    if (t < climbMs) {
      return Math.min(peakMb, normalMb + (t / periodMs + 1) * stepMb);
    }
    t -= climbMs + hold.toMillis();
    if (t < 0) {
      return peakMb;
    }
    return Math.max(normalMb, peakMb - (t / periodMs + 1) * stepMb);
  }

  /**
   * The schedule as one command-line argument, e.g.
   * {@code normal_mb=64,peak_mb=192,step_mb=32,rest_ms=20000,period_ms=1000,hold_ms=8000,cycles=0}. Plain
   * numbers with their units in the keys: the allocator's JVM has only this module's classes.
   */
  public String argument() {
    return "normal_mb=" + normalMb + ",peak_mb=" + peakMb + ",step_mb=" + stepMb + ",rest_ms=" + rest.toMillis()
        + ",period_ms=" + stepPeriod.toMillis() + ",hold_ms=" + hold.toMillis() + ",cycles=" + cycles;
  }

  /** Reads {@link #argument()}; every key is required. */
  public static MemorySchedule parse(String text) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : text.split(",")) {
      String[] kv = part.split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException("not key=value: '" + part + "' in '" + text + "'");
      }
      fields.put(kv[0].trim().toLowerCase(Locale.ROOT), kv[1].trim());
    }
    return new MemorySchedule(number(fields, "normal_mb"), number(fields, "peak_mb"), number(fields, "step_mb"),
        Duration.ofMillis(number(fields, "rest_ms")), Duration.ofMillis(number(fields, "period_ms")),
        Duration.ofMillis(number(fields, "hold_ms")), Math.toIntExact(number(fields, "cycles")));
  }

  private static long number(Map<String, String> fields, String key) {
    String value = fields.get(key);
    if (value == null) {
      throw new IllegalArgumentException("missing " + key + "= in the memory schedule");
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " is not a whole number: '" + value + "'");
    }
  }
}
