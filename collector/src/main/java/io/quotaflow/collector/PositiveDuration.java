package io.quotaflow.collector;

import java.time.Duration;
import picocli.CommandLine;

/**
 * Reads a duration option as operators write it ({@code 90s}, {@code 500ms}, {@code 5m}, ISO
 * {@code PT1S}) and refuses zero and negative ones, so picocli reports a bad value with the option's
 * name before the command starts.
 */
public final class PositiveDuration implements CommandLine.ITypeConverter<Duration> {

  @Override
  public Duration convert(String text) {
    Duration parsed;
    try {
      parsed = Periods.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
    if (parsed.isNegative() || parsed.isZero()) {
      throw new CommandLine.TypeConversionException("must be positive, was " + text);
    }
    return parsed;
  }
}
