package io.quotaflow.schemas.registry;

/** error_code 40402: version not found. */
public final class VersionNotFoundException extends SchemaRegistryException {
  public static final int ERROR_CODE = 40402;
  public static final int HTTP_STATUS = 404;

  public VersionNotFoundException(String message) {
    this(HTTP_STATUS, message);
  }

  VersionNotFoundException(int httpStatus, String message) {
    super(httpStatus, ERROR_CODE, message);
  }
}
