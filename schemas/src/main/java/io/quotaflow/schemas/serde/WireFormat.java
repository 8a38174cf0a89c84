package io.quotaflow.schemas.serde;

/** Constants of Confluent's classic prefix framing. */
public final class WireFormat {
  public static final byte MAGIC_BYTE = 0x0;
  /** Magic byte plus the 4-byte schema id. */
  public static final int HEADER_BYTES = 5;
  /** Headers Confluent 8 serializers may use instead of the prefix. */
  public static final String KEY_SCHEMA_ID_HEADER = "__key_schema_id";
  public static final String VALUE_SCHEMA_ID_HEADER = "__value_schema_id";

  private WireFormat() {}
}
