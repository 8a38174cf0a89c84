package io.quotaflow.streams.topology;

import io.quotaflow.schemas.EnforcementHeaders;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The {@code enforcement-results} source's value deserializer: a result whose header names a status
 * other than {@code REFLEX_FROZEN} comes out as null without being decoded, and the results' check
 * drops it. Enforcers answer every CPU decision, about one result per sample: the app would
 * otherwise decode each of them only to drop it. A result without the header is decoded.
 */
final class ReflexFreezeDeserializer implements Deserializer<EnforcementResult> {

  private final Deserializer<EnforcementResult> inner;

  ReflexFreezeDeserializer(Deserializer<EnforcementResult> inner) {
    this.inner = inner;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    inner.configure(configs, isKey);
  }

  @Override
  public EnforcementResult deserialize(String topic, byte[] data) {
    return inner.deserialize(topic, data);
  }

  @Override
  public EnforcementResult deserialize(String topic, Headers headers, byte[] data) {
    if (EnforcementHeaders.saysOtherThan(headers, EnforcementStatus.REFLEX_FROZEN)) {
      return null;
    }
    return inner.deserialize(topic, headers, data);
  }

  @Override
  public void close() {
    inner.close();
  }
}
