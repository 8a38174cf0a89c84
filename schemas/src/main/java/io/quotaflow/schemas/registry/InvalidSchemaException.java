package io.quotaflow.schemas.registry;

/** error_code 42201: the schema is not valid Avro. */
public final class InvalidSchemaException extends SchemaRegistryException {
  public static final int ERROR_CODE = 42201;
  public static final int HTTP_STATUS = 422;

  public InvalidSchemaException(String message) {
    this(HTTP_STATUS, message);
  }

  InvalidSchemaException(int httpStatus, String message) {
    super(httpStatus, ERROR_CODE, message);
  }
}
