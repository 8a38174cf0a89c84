package io.quotaflow.collector;

import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.NodeStatus;
import org.apache.kafka.common.serialization.Serializer;

/** Encodes the collector's two records with the catalogue's serdes (Avro, Confluent wire format). */
final class RecordEncoder {

  private final Topic<String, CgroupSample> samples;
  private final Topic<String, NodeStatus> nodes;
  private final Serializer<CgroupSample> sampleSerializer;
  private final Serializer<NodeStatus> statusSerializer;

  RecordEncoder(Topics topics) {
    this.samples = topics.samples();
    this.nodes = topics.nodes();
    this.sampleSerializer = samples.valueSerde().serializer();
    this.statusSerializer = nodes.valueSerde().serializer();
  }

  Outgoing sample(String key, CgroupSample sample) {
    return new Outgoing(Outgoing.Kind.SAMPLE, samples.name(), key,
        sampleSerializer.serialize(samples.name(), sample), sample.getTsMs(), sample.getSeq());
  }

  Outgoing status(NodeStatus status) {
    return new Outgoing(Outgoing.Kind.NODE_STATUS, nodes.name(), status.getNode(),
        statusSerializer.serialize(nodes.name(), status), status.getTsMs(), -1);
  }
}
