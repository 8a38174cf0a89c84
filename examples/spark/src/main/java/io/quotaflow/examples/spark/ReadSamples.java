package io.quotaflow.examples.spark;

import static org.apache.spark.sql.avro.functions.from_avro;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;

/**
 * Spark Structured Streaming reads a Quotaflow topic ({@code quotaflow.samples} by default) and
 * prints the decoded records. See docs/data.md.
 *
 * <p>Values are Avro in the Confluent wire format: a 5-byte header (magic byte 0, 4-byte schema id)
 * before the Avro binary. Spark's {@code from_avro} reads plain Avro binary with one schema given
 * up front, so the header is cut off with {@code substring(value, 6)} (1-based) and the schema is
 * the subject's latest version, fetched from the registry once at start. That is right while every
 * record was written with that schema; after a schema change, records written with an older
 * version must be read with theirs (the id in bytes 2-5 says which; {@code /schemas/ids/<id>}).
 *
 * <pre>
 * spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:4.2.0,org.apache.spark:spark-avro_2.13:4.2.0 \
 *   --class io.quotaflow.examples.spark.ReadSamples target/quotaflow-example-spark-*.jar \
 *   --bootstrap localhost:9092 --registry http://localhost:8081 [--topic quotaflow.samples] [--available-now]
 * </pre>
 */
public final class ReadSamples {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ReadSamples() {}

  public static void main(String[] args) throws IOException, InterruptedException, TimeoutException, StreamingQueryException {
    String bootstrap = null;
    String registry = null;
    String topic = "quotaflow.samples";
    boolean availableNow = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--bootstrap" -> bootstrap = args[++i];
        case "--registry" -> registry = args[++i];
        case "--topic" -> topic = args[++i];
        // Read what is in the topic now, then stop (a batch over a stream); else run until killed.
        case "--available-now" -> availableNow = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (bootstrap == null || registry == null) {
      throw new IllegalArgumentException("usage: ReadSamples --bootstrap HOST:PORT --registry URL [--topic T] [--available-now]");
    }
    SparkSession spark = SparkSession.builder().appName("quotaflow-read-samples").getOrCreate();
    decoded(spark, bootstrap, topic, latestValueSchema(registry, topic))
        .writeStream()
        .format("console")
        .option("truncate", false)
        .trigger(availableNow ? Trigger.AvailableNow() : Trigger.ProcessingTime(0))
        .start()
        .awaitTermination();
  }

  /** The topic as a stream of (partition, offset, key, schema_id, value fields…), from the earliest offset. */
  public static Dataset<Row> decoded(SparkSession spark, String bootstrap, String topic, String valueSchemaJson) {
    return spark.readStream()
        .format("kafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        // The streams app writes its topics in transactions (exactly_once_v2): committed records only.
        .option("kafka.isolation.level", "read_committed")
        .load()
        // A tombstone (null value, task-specs when a task is gone) has no header and nothing to decode.
        .where(col("value").isNotNull())
        .select(
            col("partition"),
            col("offset"),
            col("key").cast("string").as("key"),
            expr("conv(hex(substring(value, 2, 4)), 16, 10)").cast("int").as("schema_id"),
            from_avro(expr("substring(value, 6)"), valueSchemaJson).as("value"))
        .select("partition", "offset", "key", "schema_id", "value.*");
  }

  /** The latest schema of the topic's value subject ({@code <topic>-value}), as the registry's JSON text. */
  public static String latestValueSchema(String registryUrl, String topic) throws IOException, InterruptedException {
    String subject = URLEncoder.encode(topic + "-value", StandardCharsets.UTF_8);
    URI uri = URI.create(registryUrl.replaceAll("/+$", "") + "/subjects/" + subject + "/versions/latest");
    HttpResponse<String> reply = HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    if (reply.statusCode() != 200) {
      throw new IOException("GET " + uri + " answered " + reply.statusCode() + ": " + reply.body());
    }
    return JSON.readTree(reply.body()).get("schema").asText();
  }
}
