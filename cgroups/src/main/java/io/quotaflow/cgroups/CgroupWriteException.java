package io.quotaflow.cgroups;

import java.nio.file.Path;

/** The kernel refused a write (or a group directory operation) with an error. */
public class CgroupWriteException extends CgroupException {

  private final Path file;
  private final String value;
  private final KernelError error;

  public CgroupWriteException(Path file, String value, KernelError error, String kernelMessage) {
    super("writing \"" + value + "\" to " + file + " failed: " + error
        + (error == KernelError.OTHER ? "" : " (") + kernelMessage
        + (error == KernelError.OTHER ? "" : ")"));
    this.file = file;
    this.value = value;
    this.error = error;
  }

  /** The file written, or the group directory for mkdir/rmdir. */
  public Path file() {
    return file;
  }

  /** The value written; {@code mkdir} or {@code rmdir} for directory operations. */
  public String value() {
    return value;
  }

  public KernelError error() {
    return error;
  }
}
