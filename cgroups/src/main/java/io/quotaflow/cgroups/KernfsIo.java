package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Single writes and small reads of cgroup files for the (rare) write path, with kernel errors
 * mapped to {@link CgroupWriteException}. Never follows a symlink in the last component, never
 * creates a file. Callers check the directory and the allowlist first ({@link GroupTree}).
 */
final class KernfsIo {

  private static final int MAX_SMALL_FILE_BYTES = 1 << 16;

  private KernfsIo() {}

  /**
   * Writes {@code value} in one write(2), as kernfs parses each write on its own. O_TRUNC is what
   * a shell's {@code echo >} does: kernfs ignores it, and a fake tree's plain file needs it.
   */
  static void write(Path file, String value) throws CgroupException {
    byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS)) {
      int written = channel.write(ByteBuffer.wrap(bytes));
      if (written != bytes.length) {
        throw new CgroupWriteException(file, value, KernelError.OTHER,
            "short write: " + written + " of " + bytes.length + " bytes");
      }
    } catch (CgroupWriteException e) {
      throw e;
    } catch (IOException e) {
      refuseSymlink(file, e);
      throw new CgroupWriteException(file, value, KernelError.of(e), KernelError.messageOf(e));
    }
  }

  /** The trimmed content of a small file, or null if it does not exist. */
  static String readOrNull(Path file) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer buffer = ByteBuffer.allocate(4096);
      long position = 0;
      while (true) {
        if (!buffer.hasRemaining()) {
          if (buffer.capacity() >= MAX_SMALL_FILE_BYTES) {
            throw new IOException(file + " is larger than " + MAX_SMALL_FILE_BYTES + " bytes");
          }
          ByteBuffer larger = ByteBuffer.allocate(buffer.capacity() * 2);
          buffer.flip();
          buffer = larger.put(buffer);
        }
        int n = channel.read(buffer, position);
        if (n < 0) {
          break;
        }
        position += n;
      }
      return new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      refuseSymlink(file, e);
      throw e;
    }
  }

  /** O_NOFOLLOW on a symlink fails with ELOOP: say that it was refused, and why. */
  static void refuseSymlink(Path file, IOException e) throws UnsafeCgroupPathException {
    if (KernelError.of(e) == KernelError.ELOOP) {
      UnsafeCgroupPathException refused =
          new UnsafeCgroupPathException(file + " is a symbolic link; refusing to follow it");
      refused.initCause(e);
      throw refused;
    }
  }

  static String read(Path file) throws IOException {
    String content = readOrNull(file);
    if (content == null) {
      throw new NoSuchFileException(file.toString());
    }
    return content;
  }

  static long readLong(Path file) throws IOException {
    return parseLong(file, read(file));
  }

  static long parseLong(Path file, String text) throws CgroupException {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new CgroupException("expected an integer in " + file + ", found \"" + text + "\"");
    }
  }

  /** The value of {@code key} in a flat-keyed file, or null. */
  static Long keyed(Path file, String key) throws IOException {
    for (String line : read(file).split("\n")) {
      int space = line.indexOf(' ');
      if (space > 0 && line.substring(0, space).equals(key)) {
        return parseLong(file, line.substring(space + 1));
      }
    }
    return null;
  }
}
