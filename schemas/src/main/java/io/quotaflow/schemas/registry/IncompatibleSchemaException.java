package io.quotaflow.schemas.registry;

/** HTTP 409: the schema breaks the subject's compatibility level (error_code 409 or 40901). */
public final class IncompatibleSchemaException extends SchemaRegistryException {
  public static final int HTTP_STATUS = 409;
  public static final int ERROR_CODE = 40901;

  public IncompatibleSchemaException(String message) {
    this(HTTP_STATUS, ERROR_CODE, message);
  }

  IncompatibleSchemaException(int httpStatus, int errorCode, String message) {
    super(httpStatus, errorCode, message);
  }
}
