package io.quotaflow.cli;

import java.util.Locale;

/** Byte counts for people: binary units (1 MiB = 2^20 bytes, as the kernel's memory files count), one decimal. */
public final class ByteSize {

  private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

  private ByteSize() {}

  /** {@code 536870912} → {@code 512.0 MiB}; below 1 KiB, {@code 900 B}. */
  public static String format(long bytes) {
    if (Math.abs(bytes) < 1024) {
      return bytes + " B";
    }
    double value = bytes;
    int unit = -1;
    while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
  }

  /** {@code 512.0 MiB (536870912 bytes)}: readable, and exact for scripts and comparisons. */
  public static String withBytes(long bytes) {
    return format(bytes) + " (" + bytes + " bytes)";
  }
}
