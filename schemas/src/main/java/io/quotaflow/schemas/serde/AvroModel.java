package io.quotaflow.schemas.serde;

import org.apache.avro.specific.SpecificData;

/**
 * The Avro model the serdes read and write specific records with: the generated classes' own
 * {@code customEncode}/{@code customDecode} instead of reflection over the schema. Same bytes; the
 * streams app encodes and decodes its state on every sample, and this is most of that cost.
 * Avro leaves custom coders off unless asked ({@code org.apache.avro.specific.use_custom_coders}).
 */
final class AvroModel {

  static final SpecificData CUSTOM_CODERS = customCoders();

  private AvroModel() {}

  private static SpecificData customCoders() {
    SpecificData data = new SpecificData();
    data.setCustomCoders(true);
    return data;
  }
}
