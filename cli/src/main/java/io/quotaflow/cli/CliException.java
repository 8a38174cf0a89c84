package io.quotaflow.cli;

import io.quotaflow.process.ProcessException;

/** A problem the user can fix: printed as one line, without a stack trace, and the command exits 1. */
final class CliException extends ProcessException {
  CliException(String message) {
    super(message);
  }

  CliException(String message, Throwable cause) {
    super(message, cause);
  }
}
