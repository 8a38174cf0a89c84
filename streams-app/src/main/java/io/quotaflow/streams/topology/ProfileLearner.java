package io.quotaflow.streams.topology;

import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.avro.internal.BroadcastKind;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.FinishedTaskUsageRecord;
import io.quotaflow.schemas.avro.internal.MemoryProfileRecord;
import io.quotaflow.streams.engine.memory.MemoryProfile;
import io.quotaflow.streams.engine.memory.ProfileBook;
import java.util.Map;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Finished tasks' usage in, keyed by operation: folds each into its operation's learned profile
 * (DESIGN §4, changelogged, so profiles survive a restart) and broadcasts the new profile to every
 * partition, where the gate judges tasks without a declared normal by it.
 */
final class ProfileLearner extends ContextualProcessor<String, FinishedTaskUsageRecord, String, ConfigBroadcast> {

  private KeyValueStore<String, MemoryProfileRecord> profiles;

  @Override
  public void init(ProcessorContext<String, ConfigBroadcast> context) {
    super.init(context);
    profiles = context.getStateStore(Names.MEMORY_PROFILES_STORE);
  }

  @Override
  public void process(Record<String, FinishedTaskUsageRecord> record) {
    FinishedTaskUsageRecord usage = record.value();
    String operation = record.key();
    if (usage == null || !Ids.isValid(operation) || !operation.equals(usage.getOperation())) {
      throw new RejectedRecordException("finished-task usage needs a valid operation key matching its value: '" + operation + "'");
    }
    if (usage.getMeanBytes() <= 0 || usage.getMaxBytes() < usage.getMeanBytes()) {
      throw new RejectedRecordException("finished-task usage needs 0 < mean_bytes <= max_bytes, was "
          + usage.getMeanBytes() + ", " + usage.getMaxBytes());
    }
    MemoryProfileRecord stored = profiles.get(operation);
    ProfileBook book = ProfileBook.restore(ProfileBook.DEFAULT_RUN_WEIGHT,
        stored == null ? Map.of() : Map.of(operation, GateRecords.profile(stored)));
    MemoryProfile learned = book.learn(GateRecords.finished(usage));
    MemoryProfileRecord next = GateRecords.profile(operation, learned, usage.getTsMs());
    profiles.put(operation, next);
    ConfigBroadcast broadcast = ConfigBroadcast.newBuilder().setKind(BroadcastKind.MEMORY_PROFILE).setId(operation)
        .setMemoryProfile(next).build();
    context().forward(record.withKey(ConfigBroadcaster.keyOf(BroadcastKind.MEMORY_PROFILE, operation)).withValue(broadcast));
  }
}
