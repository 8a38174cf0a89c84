package io.quotaflow.streams.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.schemas.avro.internal.TaskRecord;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.topology.LiveStores;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Answers a route from this instance's own copy of the store partition that holds it. Called only
 * on the owner; a partition that is restoring or has just moved away is a 503, an absent key a 404.
 */
final class LiveReads {

  private final KafkaStreams streams;

  LiveReads(KafkaStreams streams) {
    this.streams = streams;
  }

  /** The JSON body for {@code route}, read from {@code partition}. */
  String read(Route route, int partition) {
    return switch (route.kind()) {
      case POOLS -> LiveJson.write(pools(partition));
      case POOL -> {
        PoolState state = this.<PoolState, PoolState>query(LiveStores.POOL_STATE, partition, s -> s.get(route.id()));
        if (state == null) {
          throw ApiException.notFound("no pool '" + route.id() + "': not configured, or no period computed for it yet");
        }
        yield LiveJson.write(JsonRecords.toJson(state));
      }
      case NODE -> {
        NodeStatus status = this.<NodeStatus, NodeStatus>query(LiveStores.NODE_STATUS, partition, s -> s.get(route.node()));
        NodeView view = NodeView.of(route.node(), status, gate(route.node(), partition));
        if (view == null) {
          throw ApiException.notFound("no node '" + route.node() + "': no status, sample or spec of it has been seen");
        }
        yield LiveJson.write(view);
      }
      case TASK -> {
        String key = TaskKey.keyOf(route.node(), route.id());
        TaskRecord record = this.<TaskRecord, TaskRecord>query(LiveStores.TASKS, partition, s -> s.get(key));
        TaskCpuState stored = record == null ? null : record.getCpu();
        TaskCpuState cpu = LiveStores.taskCpu(key, stored,
            stored == null ? null : this.<TaskSpec, TaskSpec>query(LiveStores.TASK_SPEC, partition, s -> s.get(key)));
        TaskView view = TaskView.of(route.node(), route.id(), cpu, gate(route.node(), partition));
        if (view == null) {
          throw ApiException.notFound("no task '" + key
              + "': no sample or spec of it has been seen, or it is gone");
        }
        yield LiveJson.write(view);
      }
    };
  }

  /** The node's gate, its settings and its tasks; null when it has none. */
  private LiveStores.GateView gate(String node, int partition) {
    PeakGateStateRecord gate = this.<PeakGateStateRecord, PeakGateStateRecord>query(LiveStores.PEAK_GATE, partition,
        s -> s.get(node));
    if (gate == null) {
      return null;
    }
    List<GateTaskRecord> tasks = this.<TaskRecord, List<GateTaskRecord>>query(LiveStores.TASKS, partition,
        s -> LiveStores.gateTasks(s, node));
    return new LiveStores.GateView(gate, tasks);
  }

  /** {@code {"pools": [PoolState, …]}} in pool order: every pool's newest state. */
  private ObjectNode pools(int partition) {
    ObjectNode body = LiveJson.MAPPER.createObjectNode();
    ArrayNode pools = body.putArray("pools");
    this.<PoolState, Void>query(LiveStores.POOL_STATE, partition, store -> {
      try (KeyValueIterator<String, PoolState> all = store.all()) {
        all.forEachRemaining(kv -> pools.add(JsonRecords.toJson(kv.value)));
      }
      return null;
    });
    return body;
  }

  /** Reads this instance's copy of one store partition; a store that cannot be read now is a 503. */
  private <V, R> R query(String store, int partition, Function<ReadOnlyKeyValueStore<String, V>, R> read) {
    try {
      ReadOnlyKeyValueStore<String, V> copy = streams.store(
          StoreQueryParameters.fromNameAndType(store, QueryableStoreTypes.<String, V>keyValueStore()).withPartition(partition));
      return read.apply(copy);
    } catch (InvalidStateStoreException e) {
      throw ApiException.unavailable("store " + store + " partition " + partition + " is not queryable here now (Kafka Streams is "
          + streams.state() + "; restoring or moving): " + e.getMessage());
    }
  }
}
