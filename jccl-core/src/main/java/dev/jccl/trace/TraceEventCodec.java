package dev.jccl.trace;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a rank's events into bytes and back, so that one rank can gather every rank's timeline and
 * write a single trace file. Layout: a magic int, an event count, then per event rank, track, name,
 * start, duration, detail (strings as modified UTF-8). Decoding checks the magic and every count
 * before allocating, so a truncated or foreign buffer is refused with an error.
 */
public final class TraceEventCodec {
    private static final int MAGIC = 0x4A544C31; // "JTL1"
    private static final int MAX_EVENTS = 50_000_000;

    private TraceEventCodec() {}

    public static byte[] encode(List<TraceEvent> events) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + events.size() * 64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(events.size());
            for (TraceEvent e : events) {
                out.writeInt(e.rank());
                out.writeUTF(e.track());
                out.writeUTF(e.name());
                out.writeLong(e.startNs());
                out.writeLong(e.durNs());
                out.writeUTF(e.detail());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static List<TraceEvent> decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw new IllegalArgumentException(String.format("not an encoded timeline: magic 0x%08x, expected 0x%08x", magic, MAGIC));
            }
            int count = in.readInt();
            // Each event takes at least 30 bytes, so a count the buffer cannot hold is malformed.
            if (count < 0 || count > MAX_EVENTS || (long) count * 30 > data.length) {
                throw new IllegalArgumentException("encoded timeline claims " + count + " events in " + data.length + " bytes");
            }
            List<TraceEvent> events = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                events.add(new TraceEvent(in.readInt(), in.readUTF(), in.readUTF(), in.readLong(), in.readLong(), in.readUTF()));
            }
            return events;
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated encoded timeline (" + data.length + " bytes): " + e.getMessage(), e);
        }
    }
}
