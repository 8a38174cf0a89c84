package io.quotaflow.schemas.registry;

/**
 * An answer from the registry that is not a success: carries the HTTP status and Confluent's
 * {@code error_code}. Subclasses name the cases callers act on.
 */
public class SchemaRegistryException extends RuntimeException {
  /** Confluent's client-side code for an error body that is not JSON. */
  public static final int UNPARSEABLE_ERROR_CODE = 50005;

  private final int httpStatus;
  private final int errorCode;

  public SchemaRegistryException(int httpStatus, int errorCode, String message) {
    super(message + " (HTTP " + httpStatus + ", error_code " + errorCode + ")");
    this.httpStatus = httpStatus;
    this.errorCode = errorCode;
  }

  public int httpStatus() {
    return httpStatus;
  }

  public int errorCode() {
    return errorCode;
  }

  /** Maps a registry error to its specific exception; HTTP 409 is keyed on the status, as Confluent advises. */
  public static SchemaRegistryException of(int httpStatus, int errorCode, String message) {
    if (httpStatus == 409) {
      return new IncompatibleSchemaException(httpStatus, errorCode, message);
    }
    return switch (errorCode) {
      case SubjectNotFoundException.ERROR_CODE -> new SubjectNotFoundException(httpStatus, message);
      case VersionNotFoundException.ERROR_CODE -> new VersionNotFoundException(httpStatus, message);
      case SchemaNotFoundException.ERROR_CODE -> new SchemaNotFoundException(httpStatus, message);
      case InvalidSchemaException.ERROR_CODE -> new InvalidSchemaException(httpStatus, message);
      case InvalidCompatibilityLevelException.ERROR_CODE -> new InvalidCompatibilityLevelException(httpStatus, message);
      default -> new SchemaRegistryException(httpStatus, errorCode, message);
    };
  }
}
