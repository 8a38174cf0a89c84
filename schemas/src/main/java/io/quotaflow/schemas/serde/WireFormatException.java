package io.quotaflow.schemas.serde;

import org.apache.kafka.common.errors.SerializationException;

/**
 * A record that cannot be decoded: poison, not a passing fault. Each subclass names one way the
 * bytes are wrong and the message says where the record was.
 */
public abstract class WireFormatException extends SerializationException {
  private final RecordLocation location;

  protected WireFormatException(RecordLocation location, String problem, Throwable cause) {
    super(problem + " (" + location + ")", cause);
    this.location = location;
  }

  public RecordLocation location() {
    return location;
  }

  /** The first byte is not the Confluent magic byte 0. */
  public static final class BadMagicByteException extends WireFormatException {
    public BadMagicByteException(RecordLocation location, byte found) {
      super(location, String.format("unknown magic byte 0x%02x: not Confluent-framed Avro (expected 0x00)", found), null);
    }
  }

  /** Fewer bytes than the header or the Avro payload needs. */
  public static final class TruncatedRecordException extends WireFormatException {
    public TruncatedRecordException(RecordLocation location, String problem, Throwable cause) {
      super(location, problem, cause);
    }
  }

  /** The schema id in the header is not known to the registry. */
  public static final class UnknownSchemaIdException extends WireFormatException {
    private final int schemaId;

    public UnknownSchemaIdException(RecordLocation location, int schemaId, Throwable cause) {
      super(location, "schema id " + schemaId + " is not known to the schema registry", cause);
      this.schemaId = schemaId;
    }

    public int schemaId() {
      return schemaId;
    }
  }

  /** The payload does not decode with the writer's schema, or has bytes left over. */
  public static final class MalformedPayloadException extends WireFormatException {
    public MalformedPayloadException(RecordLocation location, String problem, Throwable cause) {
      super(location, problem, cause);
    }
  }

  /** Confluent 8's header framing ({@code __value_schema_id} with a schema GUID), which this deserializer does not read. */
  public static final class HeaderFramedRecordException extends WireFormatException {
    public HeaderFramedRecordException(RecordLocation location, String header) {
      super(location, "record carries its schema id in header " + header
          + " (Confluent header framing with a schema GUID); configure the producer for the classic prefix framing", null);
    }
  }
}
