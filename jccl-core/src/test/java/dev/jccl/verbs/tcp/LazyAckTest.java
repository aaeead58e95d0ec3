package dev.jccl.verbs.tcp;

import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.base.BasicCompletionQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
import java.util.List;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * When a deferred ack goes out on its own ({@link OutboundLanes#flushAckIfDue}): at once if a
 * requester waits for it, else only once it covers a quarter of the peer's window or has waited
 * {@link OutboundLanes#LAZY_ACK_DELAY_NS}; a request that leaves first carries it instead; and which
 * requests ask for a lazy ack ({@link Requester}).
 * The frames are read back from a loopback socket.
 */
@Timeout(30)
@Tag("unit")
class LazyAckTest {
    private ServerSocketChannel listener;
    private SocketChannel wire;   // what the lanes write, read back here
    private OutboundLanes lanes;

    @BeforeEach
    void open() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel out = SocketChannel.open(listener.getLocalAddress());
        wire = listener.accept();
        wire.configureBlocking(false);
        lanes = new OutboundLanes(List.of(new OutboundLane(0, out, false, "lazy ack test", 10_000_000_000L, 10_000_000_000L,
                (l, e) -> { }, "lazy-ack-lane")));
        lanes.peerWindow(32); // a lazy ack may leave 8 requests unacknowledged
    }

    @AfterEach
    void close() throws IOException {
        lanes.close();
        wire.close();
        listener.close();
    }

    @Test
    void anUrgentAckLeavesAtOnce() throws Exception {
        lanes.deferAck(3, true);
        lanes.flushAckIfDue(System.nanoTime());
        assertAck(3, nextFrame());
    }

    @Test
    void aLazyAckWaitsForItsDelayThenLeaves() throws Exception {
        lanes.deferAck(3, false);
        lanes.flushAckIfDue(System.nanoTime());
        assertNull(frameWithin(100), "a lazy ack left before it was due");
        lanes.flushAckIfDue(System.nanoTime() + OutboundLanes.LAZY_ACK_DELAY_NS); // the clock read in deferAck came before
        assertAck(3, nextFrame());
    }

    @Test
    void aLazyAckLeavesOnceItCoversAQuarterOfThePeersWindow() throws Exception {
        lanes.deferAck(10, true);
        lanes.flushAckIfDue(System.nanoTime());
        assertAck(10, nextFrame());
        lanes.deferAck(17, false); // 7 since the last ack: may wait
        lanes.flushAckIfDue(System.nanoTime());
        assertNull(frameWithin(100), "a lazy ack covering 7 of a window of 32 left");
        lanes.deferAck(18, false); // 8: a quarter
        lanes.flushAckIfDue(System.nanoTime());
        assertAck(18, nextFrame());
    }

    @Test
    void aRequestCarriesTheDeferredAckAndNothingIsLeftToFlush() throws Exception {
        lanes.deferAck(5, false);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(8);
            lanes.send(TYPE_WRITE, REQ_ACK_LAZY, 100, src, 0, 8, 0, 1, 0, 0);
        }
        ByteBuffer h = nextFrame();
        assertEquals(TYPE_WRITE, h.get(TYPE_OFFSET));
        assertEquals(REQ_ACK_LAZY, h.get(STATUS_OFFSET));
        assertEquals(5, h.getLong(ACK_OFFSET));
        lanes.flushAckIfDue(System.nanoTime() + 10 * OutboundLanes.LAZY_ACK_DELAY_NS);
        assertNull(frameWithin(100), "an ack already carried was sent again");
    }

    /**
     * A request that may complete at its post asks for a lazy ack when its payload is copied into the
     * frame (up to {@link OutFrame#GATHER_MAX_BYTES}), and for an ack at once when it is larger; a queue
     * pair keeping RC's meaning ({@code inlineMaxBytes} 0) asks for every ack at once.
     */
    @Test
    void requestsAskForALazyAckUpToTheLargestCopiedPayload() throws Exception {
        int copied = OutFrame.GATHER_MAX_BYTES;
        Requester buffered = new Requester(8, new BasicCompletionQueue(16), 1, 100, Long.MAX_VALUE);
        Requester rc = new Requester(8, new BasicCompletionQueue(16), 2, 200, 0);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(copied + 1);
            long[] lengths = {8, OutFrame.COPY_MAX_BYTES + 1, copied, copied + 1};
            for (long length : lengths) {
                assertEquals(true, buffered.post(SendWr.write(length, new Sge(src.address(), length, 1), 0x1000, 5), src, 0, lanes));
                assertEquals(length <= copied ? REQ_ACK_LAZY : 0, nextFrame().get(STATUS_OFFSET), length + " B on a buffer-completion queue pair");
            }
            for (long length : lengths) {
                assertEquals(true, rc.post(SendWr.write(length, new Sge(src.address(), length, 1), 0x1000, 5), src, 0, lanes));
                assertEquals(0, nextFrame().get(STATUS_OFFSET), length + " B on an RC queue pair");
            }
        }
    }

    @Test
    void aRequestStatusOtherThanLazyIsRefused() {
        FrameCodec c = new FrameCodec(ByteBuffer.allocate(HEADER_BYTES).order(ORDER));
        c.encode(TYPE_SEND, REQ_ACK_LAZY, 0, 1, 0, 0, 0, 0, 0, 0);
        assertEquals(REQ_ACK_LAZY, c.status());
        c.encode(TYPE_SEND, (byte) 2, 0, 1, 0, 0, 0, 0, 0, 0);
        MalformedFrameException e = assertThrows(MalformedFrameException.class, c::validate);
        assertEquals(true, e.getMessage().contains("unknown request status 2"), e.getMessage());
    }

    private static void assertAck(long seq, ByteBuffer h) {
        assertEquals(TYPE_ACK, h.get(TYPE_OFFSET), "frame type");
        assertEquals(seq, h.getLong(SEQ_OFFSET), "acknowledged seq");
    }

    private ByteBuffer nextFrame() throws Exception {
        ByteBuffer h = frameWithin(10_000);
        if (h == null) throw new AssertionError("no frame came");
        return h;
    }

    /** The next frame's header (its payload skipped), or null if none began within {@code ms}. */
    private ByteBuffer frameWithin(long ms) throws Exception {
        return TcpFrames.nextHeader(wire, ms);
    }
}
