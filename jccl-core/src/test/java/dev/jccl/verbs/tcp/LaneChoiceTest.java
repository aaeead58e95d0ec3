package dev.jccl.verbs.tcp;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Which socket each frame of a queue pair leaves on ({@link OutboundLanes}): with several lanes, lane
 * 0 carries every message up to {@link OutboundLanes#LATENCY_MAX_BYTES} and the standalone acks, the
 * others the larger messages, round-robin, a message over {@link OutboundLanes#STRIPE_MIN_BYTES} cut
 * over them; with one lane, everything shares it. The frames are read back from loopback sockets.
 */
@Timeout(30)
@Tag("unit")
class LaneChoiceTest {
    private static final long SMALL = OutboundLanes.LATENCY_MAX_BYTES;
    private static final long MID = OutboundLanes.LATENCY_MAX_BYTES + 1;
    private static final long STRIPED = 600 * 1024;

    @Test
    void smallMessagesAndAcksKeepToLaneZeroAndLargeOnesTakeTheOthers() throws Exception {
        try (Wires w = new Wires(3); Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(STRIPED);
            for (long seq = 1; seq <= 3; seq++) w.lanes.send(TYPE_WRITE_IMM, (byte) 0, seq, src, 0, seq == 3 ? SMALL : 8, 0, 1, 0, 0);
            w.lanes.deferAck(7, true);
            w.lanes.flushAck();
            for (long seq = 1; seq <= 3; seq++) assertFrame(w.next(0), TYPE_WRITE_IMM, seq, 0);
            assertEquals(TYPE_ACK, w.next(0).get(TYPE_OFFSET));

            w.lanes.send(TYPE_WRITE, (byte) 0, 4, src, 0, MID, 0, 1, 0, 0);
            w.lanes.send(TYPE_WRITE, (byte) 0, 5, src, 0, MID, 0, 1, 0, 0);
            assertFrame(w.next(1), TYPE_WRITE, 4, 0); // bulk lanes 1 and 2, by sequence number
            assertFrame(w.next(2), TYPE_WRITE, 5, 0);

            w.lanes.send(TYPE_WRITE, (byte) 0, 6, src, 0, STRIPED, 0, 1, 0, 0);
            long half = OutboundLanes.chunkBytes(STRIPED, 2);
            assertFrame(w.next(1), TYPE_WRITE, 6, 0);
            assertFrame(w.next(2), TYPE_WRITE, 6, half);
            for (int lane = 0; lane < 3; lane++) assertNull(w.within(lane, 50), "an extra frame on lane " + lane);
        }
    }

    @Test
    void aSecondLaneCarriesEveryLargeMessageWhole() throws Exception {
        try (Wires w = new Wires(2); Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(STRIPED);
            w.lanes.send(TYPE_WRITE_IMM, (byte) 0, 1, src, 0, 8, 0, 1, 0, 0);
            w.lanes.send(TYPE_WRITE, (byte) 0, 2, src, 0, STRIPED, 0, 1, 0, 0);
            w.lanes.send(TYPE_WRITE, (byte) 0, 3, src, 0, MID, 0, 1, 0, 0);
            assertFrame(w.next(0), TYPE_WRITE_IMM, 1, 0);
            ByteBuffer whole = w.next(1);
            assertFrame(whole, TYPE_WRITE, 2, 0);
            assertEquals(STRIPED, whole.getInt(CHUNK_LENGTH_OFFSET), "one frame for the whole message");
            assertFrame(w.next(1), TYPE_WRITE, 3, 0);
        }
    }

    @Test
    void oneLaneCarriesEverything() throws Exception {
        try (Wires w = new Wires(1); Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(STRIPED);
            w.lanes.send(TYPE_WRITE, (byte) 0, 1, src, 0, STRIPED, 0, 1, 0, 0);
            w.lanes.send(TYPE_WRITE_IMM, (byte) 0, 2, src, 0, 8, 0, 1, 0, 0);
            assertFrame(w.next(0), TYPE_WRITE, 1, 0);
            assertFrame(w.next(0), TYPE_WRITE_IMM, 2, 0);
        }
    }

    private static void assertFrame(ByteBuffer h, byte type, long seq, long chunkOffset) {
        assertEquals(type, h.get(TYPE_OFFSET), "frame type");
        assertEquals(seq, h.getLong(SEQ_OFFSET), "seq");
        assertEquals(chunkOffset, h.getLong(CHUNK_OFFSET_OFFSET), "chunk offset");
    }

    /** {@code n} lanes, each over its own loopback socket whose far end the test reads. */
    private static final class Wires implements AutoCloseable {
        final OutboundLanes lanes;
        private final ServerSocketChannel listener;
        private final List<SocketChannel> far = new ArrayList<>();

        Wires(int n) throws IOException {
            listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            List<OutboundLane> near = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                SocketChannel out = SocketChannel.open(listener.getLocalAddress());
                SocketChannel in = listener.accept();
                in.configureBlocking(false);
                far.add(in);
                near.add(new OutboundLane(i, out, false, "lane choice test", 10_000_000_000L, 10_000_000_000L, (l, e) -> { },
                        "lane-choice-" + i));
            }
            lanes = new OutboundLanes(near);
        }

        ByteBuffer next(int lane) throws Exception {
            ByteBuffer h = within(lane, 10_000);
            if (h == null) throw new AssertionError("no frame came on lane " + lane);
            return h;
        }

        /** The next frame's header on {@code lane} (its payload skipped), or null if none began within {@code ms}. */
        ByteBuffer within(int lane, long ms) throws Exception {
            return TcpFrames.nextHeader(far.get(lane), ms);
        }

        @Override
        public void close() throws IOException {
            lanes.close();
            for (SocketChannel c : far) c.close();
            listener.close();
        }
    }
}
