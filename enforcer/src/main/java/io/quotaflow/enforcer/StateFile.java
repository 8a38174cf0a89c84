package io.quotaflow.enforcer;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.quotaflow.cgroups.Printable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * The enforcer's memory across restarts, as a small JSON file (docs/enforcer.md "State file"): the
 * CPU values each group had before Quotaflow first wrote it (what OFF restores) and the groups it
 * froze with their lease deadlines (the only ones it may thaw).
 *
 * <p>Every save writes a temporary file next to it, forces it to disk, renames it over the old one
 * and forces the directory, so a crash leaves either the old or the new file, never half of one.
 * A lock on {@code <file>.lock} keeps a second enforcer from using the same file: two would
 * record each other's writes as "original" values.
 */
final class StateFile implements AutoCloseable {

  static final int VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .setSerializationInclusion(JsonInclude.Include.ALWAYS)
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** The file's content. Maps are keyed by task id. */
  record Content(int version, String node, String cgroups, Map<String, OriginalCpu> originalCpu,
      Map<String, FrozenLease> frozenByUs) {
    Content {
      originalCpu = originalCpu == null ? Map.of() : new TreeMap<>(originalCpu);
      frozenByUs = frozenByUs == null ? Map.of() : new TreeMap<>(frozenByUs);
    }

    static Content empty(String node, String cgroups) {
      return new Content(VERSION, node, cgroups, Map.of(), Map.of());
    }
  }

  /** A group's CPU values before Quotaflow first wrote it; the field the version lacks is null. */
  record OriginalCpu(Long shares, Long weight, long quotaUs, long periodUs) {}

  /** A freeze this enforcer made, and the decision that made or last renewed it. */
  record FrozenLease(long expiresAtMs, String decisionTopic, int decisionPartition, long decisionOffset,
      long decisionTimestampMs) {}

  private final Path path;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private StateFile(Path path, FileChannel lockChannel, FileLock lock) {
    this.path = path;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /** Takes the file's lock (creating its directory where missing); fails if another process holds it. */
  static StateFile open(Path path) throws IOException {
    Path absolute = path.toAbsolutePath();
    Files.createDirectories(absolute.getParent());
    Path lockPath = absolute.resolveSibling(absolute.getFileName() + ".lock");
    FileChannel channel = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new IOException("state file " + absolute + " is in use by another enforcer (" + lockPath
          + " is locked): one enforcer per node and state file");
    }
    return new StateFile(absolute, channel, lock);
  }

  Path path() {
    return path;
  }

  /** The content saved last; empty when there is no file yet. */
  Content load(String node, String cgroups) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      return Content.empty(node, cgroups);
    }
    Content content;
    try {
      content = JSON.readValue(bytes, Content.class);
    } catch (JsonProcessingException e) {
      throw new IOException("cannot read the enforcer state file " + path + ": " + e.getOriginalMessage()
          + ". It holds the values OFF restores; fix it, or move it away to start without them", e);
    }
    if (content.version() != VERSION) {
      throw new IOException("enforcer state file " + path + " has version " + content.version()
          + "; this enforcer reads version " + VERSION);
    }
    if (!node.equals(content.node())) {
      throw new IOException("enforcer state file " + path + " belongs to node " + Printable.of(content.node())
          + ", not " + Printable.of(node) + ": give each node's enforcer its own --state-file");
    }
    return content;
  }

  /** Replaces the file atomically with {@code content}. */
  void save(Content content) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(content);
    Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
    try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
      out.force(true);
    }
    try {
      Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("cannot replace " + path + " atomically on this file system: " + e.getMessage(), e);
    }
    // The rename is durable only once the directory entry is on disk.
    try (FileChannel dir = FileChannel.open(path.getParent(), StandardOpenOption.READ)) {
      dir.force(true);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      lockChannel.close();
    }
  }
}
