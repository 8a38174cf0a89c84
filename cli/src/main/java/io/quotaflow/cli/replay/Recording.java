package io.quotaflow.cli.replay;

import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.PoolState;
import java.util.List;
import java.util.Set;

/**
 * What {@link RecordedTopics} read for one replay.
 *
 * @param readFromMs the warm-up start: input records from here (configs in force at it, folded to their latest value)
 * @param fromMs decisions compared from here
 * @param toMs to here, exclusive
 * @param partitions the node-partitioned topics' partition count
 * @param inputs each input topic-partition's records in offset order (the merge works on these queues)
 * @param cpu recorded cpu-decisions in [warm-up start, to): the warm-up's give the limits in force at --from
 * @param freeze recorded freeze-decisions in [warm-up start, to)
 * @param poolStates recorded pool-state in [warm-up start, to)
 * @param tasksBefore tasks with a cpu-decision recorded before the warm-up start: they ran before the input read
 * @param nodesBefore nodes with any decision recorded before the warm-up start
 * @param poolsBefore pools with a pool-state recorded before the warm-up start
 * @param unreadable input records that could not be decoded (the live app sent those to its DLQ)
 * @param misplaced input records in a partition their node does not map to (the live app sent those to its DLQ)
 */
public record Recording(long readFromMs, long fromMs, long toMs, int partitions, List<List<InputRecord>> inputs,
    List<Timed<CpuDecision>> cpu, List<Timed<FreezeDecision>> freeze, List<Timed<PoolState>> poolStates,
    Set<String> tasksBefore, Set<String> nodesBefore, Set<String> poolsBefore, long unreadable, long misplaced) {

  public long inputCount() {
    return inputs.stream().mapToLong(List::size).sum();
  }
}
