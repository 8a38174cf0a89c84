package io.quotaflow.schemas.serde;

/**
 * Where a record came from, for error messages. Kafka's {@code Deserializer} API passes only the
 * topic, so partition and offset are null unless the caller decoded a whole {@code ConsumerRecord}.
 */
public record RecordLocation(String topic, Integer partition, Long offset) {

  public static RecordLocation topic(String topic) {
    return new RecordLocation(topic, null, null);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("topic ").append(topic);
    if (partition != null) {
      text.append(" partition ").append(partition);
    }
    if (offset != null) {
      text.append(" offset ").append(offset);
    }
    return text.toString();
  }
}
