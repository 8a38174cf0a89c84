package io.quotaflow.collector;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations as operators write them: {@code 1s}, {@code 500ms}, {@code 2m}, ISO {@code PT1S},
 * or a bare number of seconds ({@code 90}), as {@code sleep} and {@code timeout} read one.
 */
public final class Periods {

  private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

  private Periods() {}

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
}
