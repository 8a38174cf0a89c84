package io.quotaflow.process;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses durations as operators write them: {@code 1s}, {@code 500ms}, {@code 2m}, ISO {@code PT1S},
 * or a bare number of seconds ({@code 90}), as {@code sleep} and {@code timeout} read one. Every
 * time option of every command reads its value with {@link Converter} or {@link Positive}, so one
 * spelling works everywhere.
 */
public final class Durations {

  private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

  private Durations() {}

  public static Duration parse(String text) {
    String trimmed = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    Matcher m = SHORT.matcher(trimmed);
    if (m.matches()) {
      long amount = Long.parseLong(m.group(1));
      switch (m.group(2) == null ? "s" : m.group(2)) {
        case "ms":
          return Duration.ofMillis(amount);
        case "s":
          return Duration.ofSeconds(amount);
        case "m":
          return Duration.ofMinutes(amount);
        default:
          return Duration.ofHours(amount);
      }
    }
    try {
      return Duration.parse(trimmed.toUpperCase(Locale.ROOT));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("not a duration: '" + text + "' (write e.g. 1s, 500ms, 2m or PT1S)");
    }
  }

  /** The shortest of the forms {@link #parse} reads, for messages and help texts. */
  public static String format(Duration duration) {
    long ms = duration.toMillis();
    if (ms % 60_000 == 0 && ms > 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0 && ms > 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }

  /**
   * A duration option that may be zero ("no wait"), read by {@link #parse}: picocli reports a bad
   * value with the option's name before the command starts.
   */
  public static class Converter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String text) {
      Duration parsed;
      try {
        parsed = parse(text);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
      if (parsed.isNegative()) {
        throw new CommandLine.TypeConversionException("must not be negative, was " + text);
      }
      if (!accepts(parsed)) {
        throw new CommandLine.TypeConversionException("must be positive, was " + text);
      }
      return parsed;
    }

    boolean accepts(Duration parsed) {
      return true;
    }
  }

  /** A duration option that must be above zero (a period, a timeout). */
  public static final class Positive extends Converter {

    @Override
    boolean accepts(Duration parsed) {
      return !parsed.isZero();
    }
  }
}
