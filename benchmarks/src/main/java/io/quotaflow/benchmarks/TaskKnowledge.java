package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.memory.ProfileBook;
import io.quotaflow.streams.engine.memory.ProfileLookup;
import io.quotaflow.streams.engine.memory.TaskMemorySpec;

/** What the gate is told about the simulated tasks: their spec, and the learned profiles it may fall back to. */
record TaskKnowledge(String label, TaskShape shape, ProfileLookup profiles, boolean declared) {

  static final String OPERATION = "seed-004";

  /** Specs name the baseline as normal and the top of a peak as peak: what the job's owner would write down. */
  static TaskKnowledge declared(TaskShape shape) {
    return new TaskKnowledge(String.format(java.util.Locale.ROOT, "declared normal %d MB / peak %d MB",
        shape.baselineMib(), shape.peakMib()), shape, ProfileLookup.NONE, true);
  }

  /** Specs name nothing; the gate uses the profile learned from earlier runs (mean as normal, max as peak). */
  static TaskKnowledge learned(TaskShape shape, ProfileBook book) {
    String label = book.profile(OPERATION)
        .map(p -> String.format(java.util.Locale.ROOT, "learned normal %d MB / peak %d MB",
            p.normalBytes() / MemoryExperiment.MIB, p.peakBytes() / MemoryExperiment.MIB))
        .orElse("learned (no profile yet)");
    return new TaskKnowledge(label, shape, book, false);
  }

  TaskMemorySpec spec(String task) {
    return declared
        ? TaskMemorySpec.batch(task, OPERATION, MemoryExperiment.bytes(shape.baselineMib()),
            MemoryExperiment.bytes(shape.peakMib()))
        : TaskMemorySpec.profiled(task, OPERATION);
  }
}
