package io.quotaflow.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class NodePartitioningTest {

  /** The contract table: implementations in other languages must reproduce these (docs/contracts.md). */
  @ParameterizedTest(name = "{0} -> {1} of 12, {2} of 7")
  @CsvSource({
      "node-1, 10, 6",
      "node-2, 9, 5",
      "node-3, 9, 4",
      "n, 9, 5",
      "worker-0042, 3, 5",
      "rack7:host-19, 9, 1",
      "a.b@c, 3, 6",
      "node-1/task-7, 10, 6",
      "node-1/other-task, 10, 6",
      "Ümlaut-free-node, 10, 6",
  })
  void pinnedPartitionsForKeys(String key, int of12, int of7) {
    assertThat(NodePartitioning.partitionOfKey(key, 12)).isEqualTo(of12);
    assertThat(NodePartitioning.partitionOfKey(key, 7)).isEqualTo(of7);
    assertThat(NodePartitioning.partitionOfKey(key, 1)).isZero();
  }

  @Property(tries = 500)
  void agreesWithTheReferenceMurmur2(@ForAll @StringLength(max = 64) String node, @ForAll @IntRange(min = 1, max = 256) int partitions) {
    assertThat(NodePartitioning.partitionOfNode(node, partitions)).isEqualTo(ReferenceMurmur2.partition(node, partitions));
  }

  @Property(tries = 300)
  void everyTaskOfANodeLandsWithTheNode(@ForAll("ids") String node, @ForAll("ids") String task) {
    assertThat(NodePartitioning.partitionOfKey(node + "/" + task, 12)).isEqualTo(NodePartitioning.partitionOfKey(node, 12));
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<String> ids() {
    return net.jqwik.api.Arbitraries.strings().withChars("abcXYZ019_:@-.").ofMinLength(1).ofMaxLength(20)
        .filter(Ids::isValid);
  }

  @Test
  void producerPartitionerUsesTheTopicsPartitionCount() {
    Node broker = new Node(0, "localhost", 9092);
    List<PartitionInfo> partitions = new java.util.ArrayList<>();
    for (int p = 0; p < 7; p++) {
      partitions.add(new PartitionInfo("t", p, broker, new Node[] {broker}, new Node[] {broker}));
    }
    Cluster cluster = new Cluster("c", List.of(broker), partitions, Set.of(), Set.of());
    NodePartitioner partitioner = new NodePartitioner();
    assertThat(partitioner.partition("t", "node-3/task-1", null, null, null, cluster)).isEqualTo(4);
    assertThatThrownBy(() -> partitioner.partition("t", null, null, null, null, cluster))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be a String node or node/task");
  }

  @Test
  void streamPartitionerSendsARecordToItsNodesPartition() {
    NodeStreamPartitioner<Object> partitioner = new NodeStreamPartitioner<>();
    assertThat(partitioner.partitions("t", "worker-0042/x", null, 12)).isEqualTo(Optional.of(Set.of(3)));
  }

  @Test
  void refusesANonPositivePartitionCount() {
    assertThatThrownBy(() -> NodePartitioning.partitionOfNode("n", 0)).hasMessageContaining("must be positive");
  }
}
