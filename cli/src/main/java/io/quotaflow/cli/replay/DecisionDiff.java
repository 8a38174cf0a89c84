package io.quotaflow.cli.replay;

import io.quotaflow.cli.replay.ReplayReport.Diff;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Compares one key's recorded and replayed records, bit for bit: their timestamps and the Avro
 * binary encodings of their values (so 0.1 + 0.2 against 0.3 is a difference, as an enforcer would
 * see it). The first difference is put in words, naming the fields that differ.
 */
public final class DecisionDiff {

  private DecisionDiff() {}

  public static <V extends SpecificRecord> Diff compare(List<Timed<V>> recorded, List<Timed<V>> replayed) {
    int n = Math.min(recorded.size(), replayed.size());
    for (int i = 0; i < n; i++) {
      Timed<V> a = recorded.get(i);
      Timed<V> b = replayed.get(i);
      if (a.timestampMs() != b.timestampMs() || !Arrays.equals(bytes(a.value()), bytes(b.value()))) {
        return new Diff(recorded.size(), replayed.size(), false, "record " + (i + 1) + " at " + Instant.ofEpochMilli(a.timestampMs())
            + ": " + fields(a, b), differingFields(a, b));
      }
    }
    if (recorded.size() == replayed.size()) {
      return Diff.identical(recorded.size());
    }
    boolean moreRecorded = recorded.size() > replayed.size();
    Timed<V> extra = (moreRecorded ? recorded : replayed).get(n);
    return new Diff(recorded.size(), replayed.size(), false, "record " + (n + 1) + " at " + Instant.ofEpochMilli(extra.timestampMs())
        + (moreRecorded ? " was recorded and not replayed: " : " was replayed and not recorded: ") + extra.value(), List.of("record"));
  }

  private static <V extends SpecificRecord> List<String> differingFields(Timed<V> a, Timed<V> b) {
    List<String> names = new java.util.ArrayList<>();
    if (a.timestampMs() != b.timestampMs()) {
      names.add("time");
    }
    for (Schema.Field field : a.value().getSchema().getFields()) {
      if (!Objects.equals(a.value().get(field.pos()), b.value().get(field.pos()))) {
        names.add(field.name());
      }
    }
    return names;
  }

  /** The fields that differ, "field X recorded, Y replayed", and the times when they do. */
  private static <V extends SpecificRecord> String fields(Timed<V> a, Timed<V> b) {
    List<String> parts = new java.util.ArrayList<>();
    for (String name : differingFields(a, b)) {
      parts.add(name.equals("time")
          ? "time " + Instant.ofEpochMilli(a.timestampMs()) + " recorded, " + Instant.ofEpochMilli(b.timestampMs()) + " replayed"
          : name + " " + value(a, name) + " recorded, " + value(b, name) + " replayed");
    }
    return parts.isEmpty() ? "equal values whose encodings differ" : String.join("; ", parts);
  }

  private static <V extends SpecificRecord> Object value(Timed<V> record, String field) {
    return record.value().get(record.value().getSchema().getField(field).pos());
  }

  static byte[] bytes(SpecificRecord value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      new SpecificDatumWriter<SpecificRecord>(value.getSchema()).write(value, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
