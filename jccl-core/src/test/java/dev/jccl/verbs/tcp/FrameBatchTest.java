package dev.jccl.verbs.tcp;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames of a list post leave together ({@link FrameBatch}): one write for small ones, each frame
 * intact and in order, a large frame behind them written on its own, and a batch the socket only
 * partly took finished later in order. The frames are read back from a loopback socket.
 */
@Timeout(30)
@Tag("unit")
class FrameBatchTest {
    private ServerSocketChannel listener;
    private SocketChannel wire;
    private OutboundLane lane;
    private OutboundLanes lanes;
    private Arena arena;

    @BeforeEach
    void open() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel out = SocketChannel.open(listener.getLocalAddress());
        out.setOption(StandardSocketOptions.SO_SNDBUF, 64 * 1024);
        wire = listener.accept();
        wire.setOption(StandardSocketOptions.SO_RCVBUF, 64 * 1024);
        lane = new OutboundLane(0, out, false, "frame batch test", 10_000_000_000L, 10_000_000_000L, (l, e) -> { }, "frame-batch-lane");
        lanes = new OutboundLanes(List.of(lane));
        arena = Arena.ofShared();
    }

    @AfterEach
    void close() throws IOException {
        lanes.close();
        wire.close();
        listener.close();
        arena.close();
    }

    @Test
    void aCreditAndTheChunkBehindItLeaveInOneWrite() throws Exception {
        MemorySegment chunk = filled(8, 7);
        long before = lane.writeCalls();
        long credit = lanes.queue(lane, TYPE_WRITE_IMM, REQ_ACK_LAZY, 10, MemorySegment.NULL, 0, 0, 0x1000, 5, 77, 0);
        long data = lanes.queue(lane, TYPE_WRITE_IMM, REQ_ACK_LAZY, 11, chunk, 0, 8, 0x2000, 5, 78, 1);
        lane.pump();
        assertTrue(lane.left(credit) && lane.left(data), "both frames reached the kernel during the post");
        assertEquals(1, lane.writeCalls() - before, "writes for the two frames");
        assertFrame(read(), 10, 77, 0, 0);
        assertFrame(read(), 11, 78, 8, 7);
    }

    @Test
    void aLargeFrameBehindSmallOnesSendsItsHeaderWithThemAndItsPayloadInASecondWrite() throws Exception {
        MemorySegment small = filled(16, 3);
        MemorySegment large = filled(OutFrame.GATHER_MAX_BYTES + 1, 9); // above the copy limit: a view, written apart
        long before = lane.writeCalls();
        lanes.queue(lane, TYPE_WRITE_IMM, REQ_ACK_LAZY, 1, small, 0, 16, 0, 5, 1, 0);
        lanes.queue(lane, TYPE_WRITE_IMM, REQ_ACK_LAZY, 2, small, 0, 16, 0, 5, 2, 1);
        lanes.queue(lane, TYPE_WRITE_IMM, (byte) 0, 3, large, 0, large.byteSize(), 0, 5, 3, 2);
        lanes.queue(lane, TYPE_WRITE_IMM, REQ_ACK_LAZY, 4, small, 0, 16, 0, 5, 4, 3);
        lane.pump();
        assertFrame(read(), 1, 1, 16, 3);
        assertFrame(read(), 2, 2, 16, 3);
        assertFrame(read(), 3, 3, large.byteSize(), 9);
        assertFrame(read(), 4, 4, 16, 3);
        assertEquals(3, lane.writeCalls() - before, "writes: two small frames and a header, the payload, the last small frame");
    }

    @Test
    void chunksUpTo64KiBLeaveWithTheirHeaderInOneWriteWhateverSizeTheirFrameCarriedBefore() throws Exception {
        int[] sizes = {16, 40 * 1024, 8 * 1024, OutFrame.GATHER_MAX_BYTES, 100, 8 * 1024 + 1};
        for (int i = 0; i < sizes.length; i++) { // one at a time, so each reuses the pooled frame of the last
            MemorySegment chunk = filled(sizes[i], i + 1);
            long before = lane.writeCalls();
            long seq = lanes.queue(lane, TYPE_WRITE_IMM, REQ_ACK_LAZY, i, chunk, 0, sizes[i], 0, 5, i, i);
            lane.pump();
            assertTrue(lane.left(seq), "the frame of " + sizes[i] + " B reached the kernel during the post");
            assertEquals(1, lane.writeCalls() - before, "writes for a frame of " + sizes[i] + " B");
            chunk.fill((byte) 0); // the frame carries its own copy: the source is free once posted
            assertFrame(read(), i, i, sizes[i], i + 1);
        }
    }

    @Test
    void aBatchTheSocketTookOnlyPartlyIsFinishedInOrder() throws Exception {
        MemorySegment chunk = filled(8 * 1024, 5);
        int frames = 256; // 2 MiB, far more than the socket buffers hold: batches are cut mid-frame and left to the sender thread
        for (int i = 0; i < frames; i++) {
            lanes.queue(lane, TYPE_WRITE_IMM, REQ_ACK_LAZY, i, chunk, 0, (int) chunk.byteSize(), 0, 5, i, i);
            if (i % 3 == 2) lane.pump();
        }
        lane.pump();
        for (int i = 0; i < frames; i++) assertFrame(read(), i, i, chunk.byteSize(), 5);
    }

    private MemorySegment filled(long bytes, int value) {
        MemorySegment s = arena.allocate(bytes);
        s.fill((byte) value);
        return s;
    }

    /** A frame: its header, and its payload as a segment. */
    private record Frame(ByteBuffer header, MemorySegment payload) {}

    private Frame read() throws IOException {
        ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ORDER);
        while (h.hasRemaining()) if (wire.read(h) < 0) throw new AssertionError("stream closed");
        ByteBuffer payload = ByteBuffer.allocateDirect(h.getInt(CHUNK_LENGTH_OFFSET));
        while (payload.hasRemaining()) if (wire.read(payload) < 0) throw new AssertionError("stream closed");
        return new Frame(h, MemorySegment.ofBuffer(payload.flip()));
    }

    private static void assertFrame(Frame f, long seq, int imm, long length, int value) {
        assertEquals(TYPE_WRITE_IMM, f.header().get(TYPE_OFFSET), "frame type");
        assertEquals(seq, f.header().getLong(SEQ_OFFSET), "seq");
        assertEquals(imm, f.header().getInt(IMM_OFFSET), "imm of seq " + seq);
        assertEquals(length, f.payload().byteSize(), "payload bytes of seq " + seq);
        for (long i = 0; i < length; i++) assertEquals(value, f.payload().get(ValueLayout.JAVA_BYTE, i), "byte " + i + " of seq " + seq);
    }
}
