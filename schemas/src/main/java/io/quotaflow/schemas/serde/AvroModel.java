package io.quotaflow.schemas.serde;

import org.apache.avro.specific.SpecificData;

/**
 * The Avro model the serializer writes specific records with: the generated classes' own
 * {@code customEncode} instead of field access by reflection over the schema. Same bytes; the
 * streams app encodes a task's state on every sample. Avro leaves custom coders off unless asked
 * ({@code org.apache.avro.specific.use_custom_coders}). Reading needs no such model: Avro's fast
 * reader, on by default, already builds a decoder per schema.
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
