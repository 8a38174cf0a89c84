package io.quotaflow.cli.replay;

import io.quotaflow.process.Durations;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * A replay's {@code --from} and {@code --to} as SREs write them from an alert or a log line: an
 * ISO instant ({@code 2026-11-26T06:40:00Z}, or without zone, read as UTC), epoch milliseconds,
 * {@code now}, or a duration before now ({@code -30m}, {@code -2h}).
 */
public final class ReplayTimes {

  private ReplayTimes() {}

  public static final String FORMS = "an ISO time (2026-11-26T06:40:00Z; no zone = UTC), epoch milliseconds, now, "
      + "or a duration before now (-30m)";

  public static Instant parse(String text, Instant now) {
    String t = text == null ? "" : text.trim();
    if (t.equalsIgnoreCase("now")) {
      return now;
    }
    if (t.startsWith("-")) {
      try {
        return now.minus(Durations.parse(t.substring(1)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("'" + text + "' is not a time: expected " + FORMS);
      }
    }
    if (t.matches("\\d{10,}")) {
      return Instant.ofEpochMilli(Long.parseLong(t));
    }
    try {
      return Instant.parse(t);
    } catch (DateTimeParseException notInstant) {
      try {
        return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("'" + text + "' is not a time: expected " + FORMS);
      }
    }
  }
}
