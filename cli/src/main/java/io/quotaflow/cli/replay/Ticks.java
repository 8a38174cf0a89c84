package io.quotaflow.cli.replay;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** Round tick values for a chart's axes: what a reader can read at a glance (0, 0.5, 1, 1.5; 12:00:00, 12:05:00). */
final class Ticks {

  private static final double[] MANTISSAS = {1, 2, 2.5, 5, 10};
  private static final long SECOND_MS = 1_000;
  private static final long MINUTE_MS = 60 * SECOND_MS;
  private static final long HOUR_MS = 60 * MINUTE_MS;
  private static final long DAY_MS = 24 * HOUR_MS;
  // Each divides a day, so ticks at multiples of it since the epoch fall on round UTC times.
  private static final long[] TIME_STEPS_MS = {SECOND_MS, 2 * SECOND_MS, 5 * SECOND_MS, 10 * SECOND_MS,
      15 * SECOND_MS, 30 * SECOND_MS, MINUTE_MS, 2 * MINUTE_MS, 5 * MINUTE_MS, 10 * MINUTE_MS, 15 * MINUTE_MS,
      30 * MINUTE_MS, HOUR_MS, 2 * HOUR_MS, 3 * HOUR_MS, 6 * HOUR_MS, 12 * HOUR_MS, DAY_MS};
  private static final int MAX_TIME_TICKS = 8;
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DAY_AND_TIME =
      DateTimeFormatter.ofPattern("MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  /** The value axis: its ticks, the step between them, and so the decimals its labels need. */
  record ValueAxis(List<Double> ticks, double step) {
    double low() {
      return ticks.get(0);
    }

    double high() {
      return ticks.get(ticks.size() - 1);
    }

    /** {@code value} with as many decimals as the step needs, thousands, millions and billions as k, M and G. */
    String label(double value) {
      double scale = Math.abs(step) >= 1e9 ? 1e9 : Math.abs(step) >= 1e6 ? 1e6 : Math.abs(step) >= 1e3 ? 1e3 : 1;
      String suffix = scale == 1e9 ? "G" : scale == 1e6 ? "M" : scale == 1e3 ? "k" : "";
      int decimals = Math.max(0, BigDecimal.valueOf(step / scale).stripTrailingZeros().scale());
      String digits = BigDecimal.valueOf(value / scale).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros()
          .toPlainString();
      return (digits.equals("-0") ? "0" : digits) + suffix;
    }
  }

  /** A time axis: tick instants and their labels (HH:mm:ss UTC; with the date when the range spans days). */
  record TimeAxis(List<Long> ticksMs, List<String> labels) {}

  private Ticks() {}

  /**
   * Four or five round ticks (steps of 1, 2, 2.5 or 5 times a power of ten) covering {@code low..high}, which must
   * be finite with {@code low < high}. With {@code low} at 0, as for every series in the report, there are always
   * four or five: the smallest step giving at most four intervals gives more than two.
   */
  static ValueAxis values(double low, double high) {
    if (!(low < high) || Double.isInfinite(high - low)) {
      throw new IllegalArgumentException("need a finite low < high, got " + low + ".." + high);
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10((high - low) / 4)));
    // Tolerance for rounding in the divisions: 0.4 / 0.1 must count as 4 intervals, not 5.
    double slack = 1e-9;
    for (double mantissa : MANTISSAS) {
      double step = mantissa * magnitude;
      long first = (long) Math.floor(low / step + slack);
      long last = (long) Math.ceil(high / step - slack);
      if (last - first <= 4) {
        List<Double> ticks = new ArrayList<>();
        for (long i = first; i <= last; i++) {
          ticks.add(i * step);
        }
        return new ValueAxis(ticks, step);
      }
    }
    throw new IllegalStateException("no step found for " + low + ".." + high); // 10 times the magnitude always fits
  }

  /** Ticks at round UTC times within {@code fromMs..toMs}, at most eight. */
  static TimeAxis times(long fromMs, long toMs) {
    long spanMs = Math.max(1, toMs - fromMs);
    long stepMs = -1;
    for (long candidate : TIME_STEPS_MS) {
      if (spanMs / candidate <= MAX_TIME_TICKS) {
        stepMs = candidate;
        break;
      }
    }
    if (stepMs < 0) {
      stepMs = (spanMs / MAX_TIME_TICKS / DAY_MS + 1) * DAY_MS;
    }
    DateTimeFormatter format = spanMs > DAY_MS ? DAY_AND_TIME : TIME;
    List<Long> ticks = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (long t = Math.floorDiv(fromMs + stepMs - 1, stepMs) * stepMs; t <= toMs; t += stepMs) {
      ticks.add(t);
      labels.add(format.format(Instant.ofEpochMilli(t)));
    }
    return new TimeAxis(ticks, labels);
  }
}
