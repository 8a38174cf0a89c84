package io.quotaflow.streams.topology;

/**
 * A record that must not be processed: a bad id, a negative or NaN field, a record in the wrong
 * partition, clock skew, an invalid config. Processors throw it and the processing exception
 * handler writes the record to the DLQ (inside the transaction) with this message in its headers;
 * processing continues with the next record and nothing else is lost.
 */
public final class RejectedRecordException extends RuntimeException {
  public RejectedRecordException(String reason) {
    super(reason);
  }

  public RejectedRecordException(String reason, Throwable cause) {
    super(reason, cause);
  }
}
