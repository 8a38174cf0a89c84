package io.quotaflow.schemas.registry;

/** error_code 42203: unknown compatibility level. */
public final class InvalidCompatibilityLevelException extends SchemaRegistryException {
  public static final int ERROR_CODE = 42203;
  public static final int HTTP_STATUS = 422;

  public InvalidCompatibilityLevelException(String message) {
    this(HTTP_STATUS, message);
  }

  InvalidCompatibilityLevelException(int httpStatus, String message) {
    super(httpStatus, ERROR_CODE, message);
  }
}
