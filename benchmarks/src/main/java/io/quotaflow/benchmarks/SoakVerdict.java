package io.quotaflow.benchmarks;

import java.util.Locale;

/**
 * Whether one series of a soak stayed flat: the least-squares slope over the last two thirds of
 * the run (the first third is warm-up: caches fill, the JIT settles, RocksDB writes its first
 * files), per hour, against the series' mean over the same points. Flat when the slope moves the
 * series by at most {@code flatPerHour} of its mean in an hour; a series that hovers near zero
 * (lag) is judged against a stated noise floor instead of its mean, so a mean of 3 records does not
 * make a slope of 30 records/h a "leak".
 *
 * @param slopePerHour units of the series per hour
 * @param relativePerHour slope over max(|mean|, floor); NaN when both are 0
 */
record SoakVerdict(double start, double end, double min, double max, double mean, double slopePerHour,
    double relativePerHour, boolean flat) {

  static SoakVerdict of(double[] hours, double[] values, double flatPerHour, double floor) {
    if (hours.length != values.length || hours.length < 3) {
      throw new IllegalArgumentException("need at least 3 points with a time each, got " + values.length);
    }
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    double span = hours[hours.length - 1] - hours[0];
    double from = hours[0] + span / 3;
    int n = 0;
    double sumT = 0;
    double sumV = 0;
    for (int i = 0; i < hours.length; i++) {
      if (hours[i] >= from) {
        n++;
        sumT += hours[i];
        sumV += values[i];
      }
    }
    double meanT = sumT / n;
    double mean = sumV / n;
    double covariance = 0;
    double variance = 0;
    for (int i = 0; i < hours.length; i++) {
      if (hours[i] >= from) {
        covariance += (hours[i] - meanT) * (values[i] - mean);
        variance += (hours[i] - meanT) * (hours[i] - meanT);
      }
    }
    double slope = variance == 0 ? 0 : covariance / variance;
    double scale = Math.max(Math.abs(mean), floor);
    double relative = scale == 0 ? (slope == 0 ? 0 : Double.NaN) : slope / scale;
    boolean flat = !Double.isNaN(relative) && Math.abs(relative) <= flatPerHour;
    return new SoakVerdict(values[0], values[values.length - 1], min, max, mean, slope, relative, flat);
  }

  String word() {
    return flat ? "flat" : slopePerHour > 0 ? "GROWS" : "falls";
  }

  String relativeText() {
    return Double.isNaN(relativePerHour) ? "n/a" : String.format(Locale.ROOT, "%+.1f %%/h", 100 * relativePerHour);
  }
}
