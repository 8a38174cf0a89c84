package io.quotaflow.schemas.serde;

/** Confluent's {@code TopicNameStrategy}: one schema lineage per topic and side. */
public final class SubjectNames {
  private SubjectNames() {}

  public static String topicNameStrategy(String topic, boolean isKey) {
    return topic + (isKey ? "-key" : "-value");
  }
}
