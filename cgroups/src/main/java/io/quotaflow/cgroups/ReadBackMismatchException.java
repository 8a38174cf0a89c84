package io.quotaflow.cgroups;

import java.nio.file.Path;

/**
 * A write succeeded but the kernel reads back something other than the normalized value
 * expected: another writer raced us, or the kernel normalizes differently than modelled.
 */
public class ReadBackMismatchException extends CgroupException {

  private final Path file;
  private final String expected;
  private final String readBack;

  public ReadBackMismatchException(Path file, String expected, String readBack) {
    super(file + " reads back \"" + readBack + "\" after writing; expected \"" + expected + "\"");
    this.file = file;
    this.expected = expected;
    this.readBack = readBack;
  }

  public Path file() {
    return file;
  }

  public String expected() {
    return expected;
  }

  public String readBack() {
    return readBack;
  }
}
