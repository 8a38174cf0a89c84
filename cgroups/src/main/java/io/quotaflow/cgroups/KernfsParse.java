package io.quotaflow.cgroups;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Parses cgroup file contents straight from a byte buffer, so sampling allocates no Strings.
 * Content occupies {@code [0, limit)} of the buffer; only absolute gets are used.
 */
final class KernfsParse {

  /** No such key, or no number where one was expected. */
  static final long MISSING = Long.MIN_VALUE;

  private KernfsParse() {}

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** The first integer of the content (optional leading spaces and '-'), or MISSING. */
  static long firstLong(ByteBuffer content) {
    return longAt(content, 0);
  }

  /** The integer starting at {@code from} after optional spaces, or MISSING. */
  static long longAt(ByteBuffer content, int from) {
    int end = content.limit();
    int i = from;
    while (i < end && content.get(i) == ' ') {
      i++;
    }
    boolean negative = i < end && content.get(i) == '-';
    if (negative) {
      i++;
    }
    int digitsStart = i;
    long value = 0;
    while (i < end) {
      int digit = content.get(i) - '0';
      if (digit < 0 || digit > 9) {
        break;
      }
      // Saturate rather than wrap: no counter Quotaflow reads gets near 2^63, but u64 fields exist.
      value = value > (Long.MAX_VALUE - digit) / 10 ? Long.MAX_VALUE : value * 10 + digit;
      i++;
    }
    if (i == digitsStart) {
      return MISSING;
    }
    return negative ? -value : value;
  }

  /**
   * The value of {@code key} in flat-keyed content ({@code "key value\n"} lines, as
   * {@code cpu.stat}, {@code memory.stat}, {@code cgroup.events}), or MISSING. Matches whole keys
   * only: {@code rss} does not match {@code rss_huge} or {@code total_rss}.
   */
  static long keyed(ByteBuffer content, byte[] key) {
    int end = content.limit();
    int line = 0;
    while (line < end) {
      if (line + key.length < end && content.get(line + key.length) == ' '
          && regionEquals(content, line, key)) {
        return longAt(content, line + key.length + 1);
      }
      while (line < end && content.get(line) != '\n') {
        line++;
      }
      line++;
    }
    return MISSING;
  }

  /** Whether the content starts with {@code token} followed by whitespace or its end. */
  static boolean startsWithWord(ByteBuffer content, byte[] token) {
    int end = content.limit();
    if (token.length > end || !regionEquals(content, 0, token)) {
      return false;
    }
    return token.length == end || Character.isWhitespace(content.get(token.length));
  }

  /** The offset just past the first space, or -1 (for two-field files like v2 {@code cpu.max}). */
  static int afterFirstSpace(ByteBuffer content) {
    for (int i = 0; i < content.limit(); i++) {
      if (content.get(i) == ' ') {
        return i + 1;
      }
    }
    return -1;
  }

  private static boolean regionEquals(ByteBuffer content, int at, byte[] token) {
    for (int k = 0; k < token.length; k++) {
      if (content.get(at + k) != token[k]) {
        return false;
      }
    }
    return true;
  }
}
