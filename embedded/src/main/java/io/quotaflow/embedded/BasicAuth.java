package io.quotaflow.embedded;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/** HTTP basic authentication against one {@code user:password}, compared in constant time. */
final class BasicAuth {
  static final String CHALLENGE = "Basic realm=\"quotaflow-schema-registry\"";

  private final byte[] expected;

  private BasicAuth(String userInfo) {
    this.expected = ("Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)))
        .getBytes(StandardCharsets.UTF_8);
  }

  /** Null when {@code userInfo} is null: no authentication. */
  static BasicAuth of(String userInfo) {
    return userInfo == null ? null : new BasicAuth(userInfo);
  }

  boolean accepts(String authorizationHeader) {
    return authorizationHeader != null
        && MessageDigest.isEqual(expected, authorizationHeader.trim().getBytes(StandardCharsets.UTF_8));
  }
}
