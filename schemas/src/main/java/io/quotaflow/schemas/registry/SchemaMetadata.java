package io.quotaflow.schemas.registry;

import org.apache.avro.Schema;

/** One version of a subject, as {@code GET /subjects/{s}/versions/{v}} returns it. */
public record SchemaMetadata(String subject, int version, int id, Schema schema) {}
