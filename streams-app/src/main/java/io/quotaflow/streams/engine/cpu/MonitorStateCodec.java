package io.quotaflow.streams.engine.cpu;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Bytes for {@link MonitorState}, so that a processor's store serde is two lines and the engine
 * stays free of Kafka and Avro. The first byte is a format version: a changelog outlives the code
 * that wrote it, and an unknown version must fail loudly rather than be misread.
 *
 * <p>Layout (big-endian), version 1: version byte; hard, soft (double); first-sample flag byte
 * and ts (long); tick count, last tick ts, last tick counter (long); smoothed flag byte and value
 * (double); vote count (int) and one signed byte per vote, oldest first; late sample count (long).
 */
public final class MonitorStateCodec {

    static final byte VERSION = 1;

    private MonitorStateCodec() {
    }

    public static byte[] encode(MonitorState state) {
        int size = 1 + 8 + 8 + 1 + 8 + 8 + 8 + 8 + 1 + 8 + 4 + state.votes().size() + 8;
        ByteBuffer buffer = ByteBuffer.allocate(size);
        buffer.put(VERSION);
        buffer.putDouble(state.hardLimitCpu());
        buffer.putDouble(state.softLimitCpu());
        buffer.put(flag(state.firstSampleTsMs() != null));
        buffer.putLong(state.firstSampleTsMs() == null ? 0 : state.firstSampleTsMs());
        buffer.putLong(state.tickCount());
        buffer.putLong(state.lastTickTsMs());
        buffer.putLong(state.lastTickCpuUsageUsec());
        buffer.put(flag(state.smoothedUsageCpu() != null));
        buffer.putDouble(state.smoothedUsageCpu() == null ? 0 : state.smoothedUsageCpu());
        buffer.putInt(state.votes().size());
        for (Vote vote : state.votes()) {
            buffer.put((byte) vote.value());
        }
        buffer.putLong(state.lateSampleCount());
        return buffer.array();
    }

    /**
     * @throws IllegalArgumentException for an unknown version, a truncated or overlong value, or
     *                                  one that breaks a state invariant (e.g. a NaN)
     */
    public static MonitorState decode(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        try {
            byte version = buffer.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("cannot decode MonitorState: unknown format version " + version
                        + " (this code reads version " + VERSION + ")");
            }
            double hardLimitCpu = buffer.getDouble();
            double softLimitCpu = buffer.getDouble();
            boolean hasFirst = readFlag(buffer);
            long firstSampleTsMs = buffer.getLong();
            long tickCount = buffer.getLong();
            long lastTickTsMs = buffer.getLong();
            long lastTickCpuUsageUsec = buffer.getLong();
            boolean hasSmoothed = readFlag(buffer);
            double smoothedUsageCpu = buffer.getDouble();
            int voteCount = buffer.getInt();
            if (voteCount < 0 || voteCount > buffer.remaining()) {
                throw new IllegalArgumentException("cannot decode MonitorState: bad vote count " + voteCount);
            }
            List<Vote> votes = new ArrayList<>(voteCount);
            for (int i = 0; i < voteCount; i++) {
                votes.add(Vote.ofValue(buffer.get()));
            }
            long lateSampleCount = buffer.getLong();
            if (buffer.hasRemaining()) {
                throw new IllegalArgumentException(
                        "cannot decode MonitorState: " + buffer.remaining() + " trailing bytes");
            }
            return new MonitorState(hardLimitCpu, softLimitCpu, hasFirst ? firstSampleTsMs : null, tickCount,
                    lastTickTsMs, lastTickCpuUsageUsec, hasSmoothed ? smoothedUsageCpu : null, votes,
                    lateSampleCount);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("cannot decode MonitorState: truncated after " + buffer.position()
                    + " of " + bytes.length + " bytes", e);
        }
    }

    private static byte flag(boolean value) {
        return (byte) (value ? 1 : 0);
    }

    private static boolean readFlag(ByteBuffer buffer) {
        byte flag = buffer.get();
        if (flag != 0 && flag != 1) {
            throw new IllegalArgumentException("cannot decode MonitorState: bad presence flag " + flag);
        }
        return flag == 1;
    }
}
