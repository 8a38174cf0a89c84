package io.quotaflow.testharness;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * How long the fuzz properties run: in CI each runs its own {@code tries} from a fixed seed, so a
 * build is repeatable and bounded; {@code -Pfuzz-long} multiplies the tries by
 * {@code quotaflow.fuzz.scale} and draws a fresh seed each run (jqwik prints it with any failure,
 * and {@code -Dquotaflow.fuzz.seed=<seed>} replays it). Add to a fuzz class with
 * {@code @AddLifecycleHook(FuzzBudget.class)}.
 */
public final class FuzzBudget implements AroundPropertyHook {

  /** The seed of every CI run; any other value of {@code quotaflow.fuzz.seed}, or "random", overrides it. */
  public static final String CI_SEED = "20261126";

  /** The multiplier of each property's tries: 1 unless a profile or {@code -Dquotaflow.fuzz.scale} says otherwise. */
  public static int scale() {
    String value = System.getProperty("quotaflow.fuzz.scale", "1").strip();
    int scale = value.isEmpty() ? 1 : Integer.parseInt(value);
    if (scale < 1) {
      throw new IllegalArgumentException("quotaflow.fuzz.scale must be at least 1, was " + scale);
    }
    return scale;
  }

  /** For a fuzz test that draws its own records (a broker test, not a property): the fixed seed, or a fresh one to print. */
  public static long seedOrRandom() {
    String seed = seed();
    return seed == null ? new java.util.Random().nextLong() : Long.parseLong(seed);
  }

  /** The fixed seed, or null when a run draws its own. */
  static String seed() {
    String value = System.getProperty("quotaflow.fuzz.seed", CI_SEED).strip();
    return value.isEmpty() || value.equals("random") ? null : value;
  }

  /** On a class, it applies to the properties in it (a hook on a container applies to the container alone by default). */
  @Override
  public PropagationMode propagateTo() {
    return PropagationMode.ALL_DESCENDANTS;
  }

  @Override
  public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
    if (context.findAnnotation(net.jqwik.api.Example.class).isPresent()) {
      return property.execute(); // one fixed case: nothing to draw more of
    }
    int tries = context.attributes().tries().orElse(1000);
    context.attributes().setTries(Math.multiplyExact(tries, scale()));
    String seed = seed();
    if (seed != null) {
      context.attributes().setSeed(seed);
    }
    return property.execute();
  }
}
