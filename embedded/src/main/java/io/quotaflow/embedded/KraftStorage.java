package io.quotaflow.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.properties.PropertiesUtils;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * Formats a data directory as {@code kafka-storage.sh format} does, but only when it is not
 * formatted yet: a formatted directory keeps its cluster id, topics and offsets across restarts.
 */
final class KraftStorage {
  private KraftStorage() {}

  /** Whether the broker would accept {@code dir} as it is (it holds {@code meta.properties}). */
  static boolean isFormatted(Path dir) {
    return Files.isRegularFile(dir.resolve(MetaPropertiesEnsemble.META_PROPERTIES_NAME));
  }

  /** Formats {@code config}'s directories with a new cluster id unless already formatted; returns the cluster id. */
  static String ensureFormatted(KafkaConfig config, Path dir) throws Exception {
    return ensureFormatted(config, dir, List.of());
  }

  /**
   * As {@link #ensureFormatted(KafkaConfig, Path)}, writing SCRAM credentials ({@code kafka-storage.sh
   * format --add-scram} arguments, e.g. {@code SCRAM-SHA-512=[name=alice,password=secret]}) when formatting now.
   */
  static String ensureFormatted(KafkaConfig config, Path dir, List<String> scramArguments) throws Exception {
    if (isFormatted(dir)) {
      return clusterId(dir);
    }
    Files.createDirectories(dir);
    String clusterId = Uuid.randomUuid().toString();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    Formatter formatter = new Formatter()
        .setPrintStream(new PrintStream(output, true, StandardCharsets.UTF_8)) // shown only if formatting fails
        .setNodeId(config.nodeId())
        .setClusterId(clusterId)
        .setControllerListenerName(config.controllerListenerNames().get(0))
        .setMetadataLogDirectory(config.metadataLogDir())
        .setUnstableFeatureVersionsEnabled(false)
        // Static voters (controller.quorum.voters), as the broker config says.
        .setHasDynamicQuorum(false);
    if (!scramArguments.isEmpty()) {
      formatter.setScramArguments(scramArguments);
    }
    formatter.addDirectory(dir.toString());
    try {
      formatter.run();
    } catch (Exception e) {
      throw new IllegalStateException("cannot format Kafka data directory " + dir + ": " + e.getMessage()
          + " (formatter said: " + output.toString(StandardCharsets.UTF_8).trim() + ")", e);
    }
    return clusterId;
  }

  static String clusterId(Path dir) throws IOException {
    Properties meta = PropertiesUtils.readPropertiesFile(dir.resolve(MetaPropertiesEnsemble.META_PROPERTIES_NAME).toString());
    return meta.getProperty("cluster.id");
  }
}
