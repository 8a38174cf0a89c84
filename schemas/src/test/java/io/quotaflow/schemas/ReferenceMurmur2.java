package io.quotaflow.schemas;

import java.nio.charset.StandardCharsets;

/**
 * Kafka's murmur2 written again from the algorithm (seed 0x9747b28c, m 0x5bd1e995, r 24,
 * little-endian 4-byte blocks), independently of Kafka's {@code Utils}, so the tests check the
 * production partitioner against the published algorithm rather than against itself. Other
 * languages port this, as docs/contracts.md shows.
 */
final class ReferenceMurmur2 {
  private ReferenceMurmur2() {}

  static int partition(String node, int partitions) {
    return (hash(node.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % partitions;
  }

  static int hash(byte[] data) {
    final int m = 0x5bd1e995;
    final int r = 24;
    int length = data.length;
    int h = 0x9747b28c ^ length;
    int blocks = length / 4;
    for (int i = 0; i < blocks; i++) {
      int at = i * 4;
      int k = (data[at] & 0xff) | (data[at + 1] & 0xff) << 8 | (data[at + 2] & 0xff) << 16 | (data[at + 3] & 0xff) << 24;
      k *= m;
      k ^= k >>> r;
      k *= m;
      h *= m;
      h ^= k;
    }
    int tail = blocks * 4;
    switch (length % 4) {
      case 3:
        h ^= (data[tail + 2] & 0xff) << 16;
        // fall through
      case 2:
        h ^= (data[tail + 1] & 0xff) << 8;
        // fall through
      case 1:
        h ^= data[tail] & 0xff;
        h *= m;
        break;
      default:
        break;
    }
    h ^= h >>> 13;
    h *= m;
    h ^= h >>> 15;
    return h;
  }
}
