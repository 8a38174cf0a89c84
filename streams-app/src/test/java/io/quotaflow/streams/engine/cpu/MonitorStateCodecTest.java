package io.quotaflow.streams.engine.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class MonitorStateCodecTest {

    private static final MonitorState SAMPLE = new MonitorState(4, 2.5, 1_000L, 7, 7_000, 123_456, 1.75,
            List.of(Vote.INCREASE, Vote.KEEP, Vote.DECREASE), 3);

    @Provide
    Arbitrary<MonitorSettings> anySettings() {
        return MonitorArbitraries.anySettings();
    }

    @Provide
    Arbitrary<Double> hardLimits() {
        return MonitorArbitraries.hardLimits();
    }

    @Provide
    Arbitrary<List<MonitorArbitraries.Event>> events() {
        return MonitorArbitraries.events(true).list().ofMaxSize(100);
    }

    @Property(tries = 200)
    void everyStateTheMonitorProducesSurvivesTheCodec(
            @ForAll("anySettings") MonitorSettings settings,
            @ForAll("hardLimits") double hardLimitCpu,
            @ForAll("events") List<MonitorArbitraries.Event> events) {
        for (MonitorStep step : EventRun.play(settings, hardLimitCpu, events).steps()) {
            assertThat(MonitorStateCodec.decode(MonitorStateCodec.encode(step.state()))).isEqualTo(step.state());
        }
    }

    @Example
    void anInitialStateWithItsAbsentFieldsSurvivesTheCodec() {
        MonitorState initial = MonitorState.initial(3);
        assertThat(MonitorStateCodec.decode(MonitorStateCodec.encode(initial))).isEqualTo(initial);
        assertThat(MonitorStateCodec.decode(MonitorStateCodec.encode(SAMPLE))).isEqualTo(SAMPLE);
    }

    @Example
    void anUnknownFormatVersionFailsLoudly() {
        byte[] bytes = MonitorStateCodec.encode(SAMPLE);
        bytes[0] = 9;
        assertThatThrownBy(() -> MonitorStateCodec.decode(bytes))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown format version 9");
    }

    @Example
    void truncatedOrOverlongBytesAreRejected() {
        byte[] bytes = MonitorStateCodec.encode(SAMPLE);
        assertThatThrownBy(() -> MonitorStateCodec.decode(Arrays.copyOf(bytes, bytes.length - 1)))
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> MonitorStateCodec.decode(Arrays.copyOf(bytes, bytes.length + 2)))
                .hasMessageContaining("2 trailing bytes");
        assertThatThrownBy(() -> MonitorStateCodec.decode(new byte[0])).hasMessageContaining("truncated");
    }

    @Example
    void aStoredNanIsRejectedRatherThanLetIntoTheState() {
        byte[] bytes = MonitorStateCodec.encode(SAMPLE);
        ByteBuffer.wrap(bytes).putDouble(1 + 8, Double.NaN); // the soft limit
        assertThatThrownBy(() -> MonitorStateCodec.decode(bytes)).hasMessageContaining("soft_limit_cpu");
    }
}
