package io.quotaflow.streams.engine.memory;

import java.util.Optional;

/**
 * Where the gate finds an operation's learned profile. Profiles are learned per operation across all nodes and
 * broadcast to every partition, so they live beside the gate's state, not inside it.
 */
@FunctionalInterface
public interface ProfileLookup {

  /** No profiles: only tasks whose spec names a normal are gated. */
  ProfileLookup NONE = operation -> Optional.empty();

  Optional<MemoryProfile> profile(String operation);
}
