package io.quotaflow.streams.api;

/** A request the API answers with an error status and a reason, rather than with state. */
final class ApiException extends RuntimeException {

  private final int status;

  ApiException(int status, String reason) {
    super(reason);
    this.status = status;
  }

  static ApiException badRequest(String reason) {
    return new ApiException(400, reason);
  }

  static ApiException notFound(String reason) {
    return new ApiException(404, reason);
  }

  /** The state exists somewhere but cannot be read now (starting, rebalancing, owner unreachable): retry. */
  static ApiException unavailable(String reason) {
    return new ApiException(503, reason);
  }

  int status() {
    return status;
  }
}
