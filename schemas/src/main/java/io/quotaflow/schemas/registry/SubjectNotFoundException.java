package io.quotaflow.schemas.registry;

/** error_code 40401: subject not found. */
public final class SubjectNotFoundException extends SchemaRegistryException {
  public static final int ERROR_CODE = 40401;
  public static final int HTTP_STATUS = 404;

  public SubjectNotFoundException(String message) {
    this(HTTP_STATUS, message);
  }

  SubjectNotFoundException(int httpStatus, String message) {
    super(httpStatus, ERROR_CODE, message);
  }
}
