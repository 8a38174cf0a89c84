package io.quotaflow.cli.replay;

import io.quotaflow.cli.replay.ReplayReport.Diff;
import io.quotaflow.cli.replay.ReplayReport.Exactness;
import io.quotaflow.process.ops.Markup;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Figures and words as the HTML report prints them. Every number goes through here so that no "NaN" or "Infinity"
 * reaches a reader (a figure the replay could not compute reads "n/a"), and every user-derived word through
 * {@link #text}, escaped.
 */
final class Figures {

  static final String NOT_AVAILABLE = "n/a";
  private static final double KIB = 1024;
  private static final double MIB = KIB * KIB;
  private static final double GIB = MIB * KIB;

  private Figures() {}

  /** User-derived text (keys, reasons, overrides), escaped for element content or a quoted attribute; null reads empty. */
  static String text(String userText) {
    return userText == null ? "" : Markup.escape(userText);
  }

  /** An instant as UTC ISO-8601 ("2026-11-26T06:43:39Z"). */
  static String utc(long epochMs) {
    return Instant.ofEpochMilli(epochMs).toString();
  }

  /** {@code value} with one decimal ("12.5"). */
  static String decimal(double value) {
    return Double.isFinite(value) ? String.format(Locale.ROOT, "%.1f", value) : NOT_AVAILABLE;
  }

  /** A change with its sign ("+12.5", "-3.0"); a change that rounds to nothing reads "0.0". */
  static String signed(double change) {
    if (!Double.isFinite(change)) {
      return NOT_AVAILABLE;
    }
    String digits = String.format(Locale.ROOT, "%.1f", Math.abs(change));
    return digits.equals("0.0") ? digits : (change > 0 ? "+" : "-") + digits;
  }

  /** Seconds with one decimal and the unit ("12.5 s"). */
  static String seconds(double seconds) {
    return Double.isFinite(seconds) ? decimal(seconds) + " s" : NOT_AVAILABLE;
  }

  /** A memory size in MiB below a GiB, in GiB from there ("512.0 MiB", "1.50 GiB"). */
  static String bytes(double bytes) {
    if (!Double.isFinite(bytes)) {
      return NOT_AVAILABLE;
    }
    return Math.abs(bytes) < GIB ? String.format(Locale.ROOT, "%.1f MiB", bytes / MIB)
        : String.format(Locale.ROOT, "%.2f GiB", bytes / GIB);
  }

  /** The unit a memory chart is drawn in: GiB when the peak reaches one, MiB below. */
  static double memoryUnitBytes(double peakBytes) {
    return peakBytes >= GIB ? GIB : MIB;
  }

  static String memoryUnitName(double unitBytes) {
    return unitBytes == GIB ? "GiB" : "MiB";
  }

  /** "exact" or "approximate", with the reason beneath (escaped HTML). */
  static String exactness(Exactness exactness) {
    if (exactness == null) {
      return NOT_AVAILABLE;
    }
    String word = exactness.exact() ? "exact" : "approximate";
    return exactness.reason() == null || exactness.reason().isBlank() ? word
        : word + " <span class=\"reason\">(" + text(exactness.reason()) + ")</span>";
  }

  /**
   * The first difference in a table cell: where it is and which fields differ, not their values ("record 3 at …:
   * effective_limit_cpu, cgroup differ"); the task's section has the values. Plain text, not escaped.
   */
  static String diffBrief(Diff diff) {
    if (diff.identical()) {
      return "identical";
    }
    String counts = diff.recorded() == diff.replayed() ? "" : " (" + diff.recorded() + " recorded, " + diff.replayed() + " replayed)";
    String first = diff.firstDifference();
    int colon = first == null ? -1 : first.indexOf(": ");
    if (colon < 0 || diff.differingFields().isEmpty() || diff.differingFields().contains("record")) {
      return (first == null ? "differs" : first) + counts;
    }
    return first.substring(0, colon) + ": " + String.join(", ", diff.differingFields()) + " differ" + counts;
  }

  /** Each reason without its explanation, for a terminal line: "its pool relaxed was capped; it ran before the input read". */
  static String shortReason(String reason) {
    List<String> parts = new java.util.ArrayList<>();
    for (String part : reason.split("; ")) {
      int colon = part.indexOf(':');
      int paren = part.indexOf(" (");
      int cut = colon < 0 ? paren : paren < 0 ? colon : Math.min(colon, paren);
      parts.add(cut < 0 ? part : part.substring(0, cut));
    }
    return String.join("; ", parts);
  }

  /** "identical" or the first difference, with the record counts when they differ (escaped HTML). */
  static String diffWords(Diff diff) {
    if (diff == null) {
      return NOT_AVAILABLE;
    }
    if (diff.identical()) {
      return "identical";
    }
    String counts = diff.recorded() + " recorded, " + diff.replayed() + " replayed";
    return diff.firstDifference() == null ? "differs (" + counts + ")" : text(diff.firstDifference())
        + (diff.recorded() == diff.replayed() ? "" : " (" + counts + ")");
  }
}
