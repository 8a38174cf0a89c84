package io.quotaflow.cgroups;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.io.IOException;

/**
 * The errno behind a failed cgroup file operation. Java reports errno only as the C library's
 * message text ("Invalid argument"), so the mapping reads that text; an unknown text is OTHER and
 * the raw message is kept alongside.
 */
public enum KernelError {
  /** Value malformed or outside what the kernel accepts (period/quota bounds, parent quota). */
  EINVAL("Invalid argument"),
  /** v2 numeric value out of range (e.g. {@code cpu.weight} outside {@link KernelCpuLimits}'s bounds). */
  ERANGE("Numerical result out of range"),
  /** Group still in use (rmdir of a populated group). */
  EBUSY("Device or resource busy"),
  /** The group was removed while a file of it was open. */
  ENODEV("No such device"),
  ENOENT("No such file or directory"),
  EACCES("Permission denied"),
  EPERM("Operation not permitted"),
  /** e.g. attaching to a v1 cpuset group without cpus/mems, or a pids limit. */
  ENOSPC("No space left on device"),
  /** Attaching a pid that no longer exists. */
  ESRCH("No such process"),
  /** Opening a symlink with O_NOFOLLOW: refused for safety. */
  ELOOP("Too many levels of symbolic links"),
  OTHER("");

  private final String text;

  KernelError(String text) {
    this.text = text;
  }

  static KernelError of(IOException e) {
    if (e instanceof NoSuchFileException) {
      return ENOENT;
    }
    if (e instanceof AccessDeniedException) {
      return EACCES;
    }
    String message = messageOf(e);
    for (KernelError error : values()) {
      if (!error.text.isEmpty() && message.contains(error.text)) {
        return error;
      }
    }
    return OTHER;
  }

  /** The errno text: for a {@link FileSystemException} its reason, without the file name. */
  static String messageOf(IOException e) {
    String message = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
    return message == null ? e.getClass().getSimpleName() : message;
  }
}
