package io.quotaflow.cli.replay;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The replay report as the JSON file beside the HTML: snake_case field names, so a notebook reads it with
 * {@code json.load} and finds the names the topics' Avro records use. Every point is kept (the HTML draws a
 * downsampled copy).
 */
public final class ReportJson {

  /**
   * {@link ReplayReport.Pair#change()} is derived, not a record component: a mix-in adds it to the output (a
   * reader of the file should not have to subtract) and ignores it on input (the constructor cannot take it).
   * A mix-in rather than annotations on the record keeps the model free of Jackson.
   */
  @JsonIgnoreProperties(value = "change", allowGetters = true)
  private abstract static class PairMixIn {
    @JsonProperty("change")
    abstract double change();
  }

  /*
   * A figure the replay could not compute is NaN. It is written as the bare token NaN, which Python's json.load
   * reads as float('nan'), rather than Jackson's default string "NaN", which a notebook would get as a str in a
   * column of floats; reading takes the token back.
   */
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .addMixIn(ReplayReport.Pair.class, PairMixIn.class)
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      // write() closes its file itself, after the final newline.
      .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
      .build();

  private ReportJson() {}

  /** The report, pretty-printed. */
  public static String toJson(ReplayReport report) {
    try {
      return MAPPER.writeValueAsString(report);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the replay report as JSON", e);
    }
  }

  /**
   * Writes the report to {@code file} (UTF-8), replacing it. Streamed, not through {@link #toJson}: a day of
   * hundreds of tasks sampled every 10 s is a JSON file of a few hundred megabytes.
   */
  public static void write(ReplayReport report, Path file) throws IOException {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      MAPPER.writeValue(out, report);
      out.write("\n");
    }
  }

  /** Reads a report {@link #write} wrote: for tests and for Java notebooks. */
  public static ReplayReport read(Path file) throws IOException {
    return MAPPER.readValue(file.toFile(), ReplayReport.class);
  }
}
