package dev.jccl.verbs.tcp;

import dev.jccl.fuzz.FuzzCount;
import dev.jccl.fuzz.Mutator;
import dev.jccl.fuzz.Tries;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frame header validation, the first check every inbound byte meets: a header either passes with
 * every field inside what {@link FrameDescriptor} allows, or is refused with a
 * {@link MalformedFrameException}; no other outcome.
 */
@Tag("unit")
class FrameCodecProperties {
    private static final String TARGET = "tcp-header (FrameCodec.validate)";
    private static final int BATCH = 40;
    private static final int TRIES = 1000;

    @Test
    void aHeaderPassesOnlyWithEveryFieldInRange() {
        Tries.run(TRIES, this::aHeaderPassesOnlyWithEveryFieldInRange);
    }

    /** One try of {@link #aHeaderPassesOnlyWithEveryFieldInRange()}. */
    private void aHeaderPassesOnlyWithEveryFieldInRange(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Mutator m = new Mutator(r, ORDER);
        ByteBuffer buf = ByteBuffer.allocate(HEADER_BYTES).order(ORDER);
        FrameCodec codec = new FrameCodec(buf);
        for (int i = 0; i < BATCH; i++) {
            byte[] header = Arrays.copyOf(TcpFrames.frame(r, (byte) (1 + r.nextInt(7)), (byte) r.nextInt(4), r.nextInt(2048),
                    r.nextLong(1 << 20), r.nextLong(1 << 21), r.nextLong(1 << 20), r.nextLong(), r.nextInt(), r.nextLong(16), -1), HEADER_BYTES);
            byte[] bad = Arrays.copyOf(r.nextInt(10) == 0 ? header : m.mutate(header), HEADER_BYTES); // a header is always 64 bytes
            buf.clear().put(bad).clear();
            boolean refused;
            try {
                codec.validate();
                refused = false;
            } catch (MalformedFrameException e) {
                refused = true;
                assertTrue(e.getMessage().contains("seq"), e.getMessage());
            }
            if (!refused) assertInRange(codec);
            FuzzCount.record(TARGET, refused);
        }
    }

    @AfterAll
    static void report() {
        FuzzCount.report(TARGET);
    }

    private static void assertInRange(FrameCodec h) {
        byte type = h.type();
        assertTrue(type >= TYPE_SEND && type <= TYPE_NAK, "type " + type);
        assertEquals(0, h.buffer().getShort(RESERVED_OFFSET));
        int chunk = h.chunkLength();
        assertTrue(chunk >= 0 && chunk <= MAX_CHUNK_BYTES, "chunk " + chunk);
        assertTrue(h.seq() >= 0 && h.ack() >= NO_ACK);
        switch (type) {
            case TYPE_SEND, TYPE_WRITE, TYPE_WRITE_IMM, TYPE_READ_RESPONSE -> {
                assertTrue(h.msgLength() >= 0 && h.chunkOffset() >= 0 && h.chunkOffset() <= h.msgLength());
                assertTrue(chunk <= h.msgLength() - h.chunkOffset(), "chunk past its message");
            }
            case TYPE_READ_REQUEST -> assertTrue(chunk == 0 && h.msgLength() >= 0);
            case TYPE_ACK -> assertEquals(0, chunk);
            default -> assertTrue(chunk <= MAX_DETAIL_BYTES && h.status() >= NAK_REMOTE_ACCESS && h.status() <= NAK_RECEIVE_TOO_SMALL);
        }
        if (type == TYPE_SEND || type == TYPE_WRITE_IMM) assertTrue(h.recvIndex() >= 0);
    }
}
