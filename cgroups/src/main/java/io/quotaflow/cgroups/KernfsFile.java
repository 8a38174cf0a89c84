package io.quotaflow.cgroups;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A cgroup file kept open and re-read from offset 0 each time: kernfs regenerates the content on
 * every read at offset 0, so sampling costs one pread per file and no open, close or path walk.
 */
final class KernfsFile implements Closeable {

  private final Path path;
  private final FileChannel channel;

  private KernfsFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** Opens without following a symlink in the last component; null when the file is absent. */
  static KernfsFile openIfPresent(Path path) throws IOException {
    try {
      return new KernfsFile(path,
          FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      KernfsIo.refuseSymlink(path, e);
      throw e;
    }
  }

  Path path() {
    return path;
  }

  /**
   * Reads the whole file into {@code buffer}, growing it (a new direct buffer) only when the
   * content does not fit. Returns the buffer holding the content in {@code [0, limit)}.
   *
   * <p>One pread per sample: kernfs (seq_file) fills the caller's buffer until it is full or the
   * content ends, so a read shorter than the room offered is the end, and the extra pread that
   * would return EOF is skipped.
   */
  ByteBuffer read(ByteBuffer buffer) throws IOException {
    buffer.clear();
    long position = 0;
    while (true) {
      if (!buffer.hasRemaining()) {
        ByteBuffer larger = ByteBuffer.allocateDirect(buffer.capacity() * 2);
        buffer.flip();
        larger.put(buffer);
        buffer = larger;
      }
      int room = buffer.remaining();
      int n = channel.read(buffer, position);
      if (n < 0) {
        break;
      }
      position += n;
      if (n < room) {
        break;
      }
    }
    buffer.flip();
    return buffer;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
