package io.quotaflow.schemas;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The record header of {@code enforcement-results} that says a result's status before its value is
 * decoded. The streams app wants only the reflex's freezes, and enforcers publish one result per
 * CPU decision besides: with the header it drops the others unread, without one it decodes.
 */
public final class EnforcementHeaders {

  /** The result's {@code status} (an {@code EnforcementStatus} name), UTF-8. */
  public static final String STATUS = "quotaflow.status";

  private EnforcementHeaders() {}

  /** Adds the status header to a result's record. */
  public static void putStatus(Headers headers, Enum<?> status) {
    headers.add(STATUS, status.name().getBytes(StandardCharsets.UTF_8));
  }

  /** Whether the record's headers say it has a status other than {@code status}; false when they say none. */
  public static boolean saysOtherThan(Headers headers, Enum<?> status) {
    Header header = headers == null ? null : headers.lastHeader(STATUS);
    return header != null && header.value() != null
        && !status.name().equals(new String(header.value(), StandardCharsets.UTF_8));
  }
}
