package io.quotaflow.schemas.registry;

/** error_code 40403: schema not found: an unknown id, or a schema not registered under the subject. */
public final class SchemaNotFoundException extends SchemaRegistryException {
  public static final int ERROR_CODE = 40403;
  public static final int HTTP_STATUS = 404;

  public SchemaNotFoundException(String message) {
    this(HTTP_STATUS, message);
  }

  SchemaNotFoundException(int httpStatus, String message) {
    super(httpStatus, ERROR_CODE, message);
  }
}
