package io.quotaflow.cgroups;

import java.nio.file.Path;

/** The kernel refused a write (or a group directory operation) with an error. */
public class CgroupWriteException extends CgroupException {

  private final Path file;
  private final String value;
  private final KernelError error;

  /** A refused write of {@code value} to {@code file}. */
  public CgroupWriteException(Path file, String value, KernelError error, String kernelMessage) {
    this("writing \"" + value + "\" to " + file, file, value, error, kernelMessage);
  }

  private CgroupWriteException(String what, Path file, String value, KernelError error,
      String kernelMessage) {
    super(what + " failed: " + (error == KernelError.OTHER ? kernelMessage
        : error + " (" + kernelMessage + ")"));
    this.file = file;
    this.value = value;
    this.error = error;
  }

  /** A refused {@code mkdir} or {@code rmdir} of a group directory. */
  static CgroupWriteException directory(String operation, Path dir, KernelError error,
      String kernelMessage) {
    return new CgroupWriteException(operation + " " + dir, dir, operation, error, kernelMessage);
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
