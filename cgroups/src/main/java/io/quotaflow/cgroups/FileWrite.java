package io.quotaflow.cgroups;

/**
 * One file written, in the order it was written: the journal of an apply, so a caller can report
 * exactly what changed and in which order (v1 period before quota).
 *
 * @param before the value read before writing
 */
public record FileWrite(String file, String before, String written) {}
