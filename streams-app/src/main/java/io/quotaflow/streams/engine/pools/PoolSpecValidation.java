package io.quotaflow.streams.engine.pools;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a pool configuration must satisfy (errors: the record is refused) and what YTsaurus accepts
 * with an alert (warnings: returned as values, the configuration stays in force). Messages use the
 * contract's field names, since operators read them on the DLQ and in {@code pool-state} logs.
 */
public final class PoolSpecValidation {

  /** Ids as DESIGN's Safety section fixes them. */
  static final String POOL_ID_RULE = "[A-Za-z0-9_:@-][A-Za-z0-9._:@-]{0,127}";
  private static final int MAX_ID_LENGTH = 128;

  /** The range YTsaurus allows for a pool's own multiplier. */
  static final double MIN_RELAXED_MULTIPLIER = 1.0;
  static final double MAX_RELAXED_MULTIPLIER = 10.0;

  private PoolSpecValidation() {}

  /** Problems that make {@code spec} unusable; empty when it is valid. */
  public static List<String> errors(PoolSpec spec) {
    List<String> errors = fieldErrors(spec);
    if (spec.guaranteeType() == GuaranteeType.RELAXED && spec.burstGuaranteeCpu() != 0.0) {
      errors.add(prefix(spec.pool()) + "burst_guarantee_cpu cannot be set on a RELAXED pool (got "
          + spec.burstGuaranteeCpu() + "); use guarantee_type BURST, or set only resource_flow_cpu");
    }
    return errors;
  }

  /**
   * The problems of each field on its own, without the rules between fields: what {@code quotaflow
   * pool set} can check before it has read the pool's current config (which the relations depend on).
   */
  public static List<String> fieldErrors(PoolSpec spec) {
    List<String> errors = new ArrayList<>();
    String pool = spec.pool();
    if (!isValidId(pool)) {
      errors.add("pool id '" + pool + "' must match " + POOL_ID_RULE);
    }
    if (spec.parent() != null) {
      errors.add(prefix(pool) + "parent must be null (pools are flat), got '" + spec.parent() + "'");
    }
    requireNonNegative(errors, pool, "strong_guarantee_cpu", spec.strongGuaranteeCpu());
    if (!(spec.weight() > 0) || Double.isInfinite(spec.weight())) {
      errors.add(prefix(pool) + "weight must be a finite number > 0, got " + spec.weight());
    }
    requireNonNegative(errors, pool, "resource_flow_cpu", spec.resourceFlowCpu());
    requireNonNegative(errors, pool, "burst_guarantee_cpu", spec.burstGuaranteeCpu());
    Double multiplier = spec.relaxedShareMultiplierLimit();
    if (multiplier != null
        && !(multiplier >= MIN_RELAXED_MULTIPLIER && multiplier <= MAX_RELAXED_MULTIPLIER)) {
      errors.add(prefix(pool) + "relaxed_share_multiplier_limit must be in [" + MIN_RELAXED_MULTIPLIER
          + ", " + MAX_RELAXED_MULTIPLIER + "] or null, got " + multiplier);
    }
    if (spec.limitCpu() != null) {
      requireNonNegative(errors, pool, "limit_cpu", spec.limitCpu());
    }
    return errors;
  }

  /** Problems of each spec, and ids given twice. */
  public static List<String> errors(Collection<PoolSpec> specs) {
    List<String> errors = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (PoolSpec spec : specs) {
      if (!seen.add(spec.pool())) {
        errors.add("pool '" + spec.pool() + "' is configured twice");
      }
      errors.addAll(errors(spec));
    }
    return errors;
  }

  /** Throws {@link InvalidPoolSpecException} listing every problem when there is any. */
  public static void requireValid(Collection<PoolSpec> specs) {
    List<String> errors = errors(specs);
    if (!errors.isEmpty()) {
      throw new InvalidPoolSpecException(errors);
    }
  }

  /**
   * Configurations that run, but not as written: sums above the cluster (YTsaurus alerts; the
   * engine scales strong and burst guarantees, never flows) and values a pool's type ignores.
   */
  public static List<String> warnings(Collection<PoolSpec> specs, double totalCpu) {
    List<String> warnings = new ArrayList<>();
    double strongCpu = 0;
    double flowCpu = 0;
    double burstCpu = 0;
    for (PoolSpec spec : specs) {
      warnings.addAll(warnings(spec));
      double strong = spec.limitCpu() == null
          ? spec.strongGuaranteeCpu()
          : Math.min(spec.strongGuaranteeCpu(), spec.limitCpu());
      strongCpu += strong;
      if (spec.guaranteeType() != GuaranteeType.NONE) {
        flowCpu += spec.resourceFlowCpu();
      }
      if (spec.guaranteeType() == GuaranteeType.BURST) {
        burstCpu += spec.burstGuaranteeCpu();
      }
    }
    if (totalCpu <= 0) {
      if (!specs.isEmpty()) {
        warnings.add("total_cpu is 0: no shares are computed, volumes do not change and tasks are not capped");
      }
      return warnings;
    }
    if (strongCpu + flowCpu > totalCpu) {
      warnings.add(String.format(Locale.ROOT,
          "strong guarantees and resource flows exceed total cluster resources: "
              + "strong_guarantee_cpu %s + resource_flow_cpu %s > total_cpu %s",
          fmt(strongCpu), fmt(flowCpu), fmt(totalCpu)));
    }
    if (strongCpu + burstCpu > totalCpu) {
      warnings.add(String.format(Locale.ROOT,
          "strong and burst guarantees exceed total cluster resources: "
              + "strong_guarantee_cpu %s + burst_guarantee_cpu %s > total_cpu %s; both are scaled by %s",
          fmt(strongCpu), fmt(burstCpu), fmt(totalCpu), fmt(totalCpu / (strongCpu + burstCpu))));
    }
    return warnings;
  }

  private static List<String> warnings(PoolSpec spec) {
    List<String> warnings = new ArrayList<>();
    String pool = spec.pool();
    switch (spec.guaranteeType()) {
      case NONE -> {
        if (spec.resourceFlowCpu() > 0 || spec.burstGuaranteeCpu() > 0) {
          warnings.add(prefix(pool) + "resource_flow_cpu and burst_guarantee_cpu are ignored: guarantee_type is NONE");
        }
      }
      case BURST -> {
        if (spec.resourceFlowCpu() <= 0 || spec.burstGuaranteeCpu() <= 0) {
          warnings.add(prefix(pool) + "a BURST pool needs both resource_flow_cpu and burst_guarantee_cpu > 0"
              + " (flow " + fmt(spec.resourceFlowCpu()) + ", burst " + fmt(spec.burstGuaranteeCpu()) + ")");
        } else if (spec.resourceFlowCpu() > spec.burstGuaranteeCpu()) {
          warnings.add(prefix(pool) + "resource_flow_cpu " + fmt(spec.resourceFlowCpu())
              + " exceeds burst_guarantee_cpu " + fmt(spec.burstGuaranteeCpu())
              + ": the volume refills faster than the pool may spend it");
        }
      }
      case RELAXED -> {
        if (spec.resourceFlowCpu() <= 0) {
          warnings.add(prefix(pool) + "a RELAXED pool with resource_flow_cpu 0 never accumulates volume");
        }
      }
    }
    if (spec.limitCpu() != null && spec.strongGuaranteeCpu() > spec.limitCpu()) {
      warnings.add(prefix(pool) + "strong_guarantee_cpu " + fmt(spec.strongGuaranteeCpu())
          + " exceeds limit_cpu " + fmt(spec.limitCpu()) + ": only limit_cpu is guaranteed");
    }
    return warnings;
  }

  /** {@link #POOL_ID_RULE} without a regex: the engine checks every pool on every update. */
  static boolean isValidId(String id) {
    if (id.isEmpty() || id.length() > MAX_ID_LENGTH || id.charAt(0) == '.') {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
          || c == '.' || c == '_' || c == ':' || c == '@' || c == '-';
      if (!allowed) {
        return false;
      }
    }
    return true;
  }

  private static void requireNonNegative(List<String> errors, String pool, String field, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      errors.add(prefix(pool) + field + " must be a finite number >= 0, got " + value);
    }
  }

  private static String prefix(String pool) {
    return "pool '" + pool + "': ";
  }

  private static String fmt(double value) {
    return new BigDecimal(value).round(new MathContext(6)).stripTrailingZeros().toPlainString();
  }
}
