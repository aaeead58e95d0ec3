package dev.jccl.verbs.tcp;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;

/**
 * The sockets one queue pair sends on, and how a message is cut over them.
 *
 * <p>A message up to {@link #STRIPE_MIN_BYTES} travels whole on one lane (lanes taken round-robin by
 * sequence number); a larger one is cut into contiguous chunks dealt to the lanes in turn, one per
 * lane when that fits {@link FrameDescriptor#MAX_CHUNK_BYTES}, so every socket streams in parallel.
 * Standalone ACKs and NAKs always go on lane 0, in the order they are issued.
 *
 * <p>Acknowledgements are deferred ({@link #deferAck}): the next request or READ_RESPONSE to leave,
 * on any lane, carries the highest deferred one in its header, and {@link #flushAck} sends what is
 * still owed as an ACK frame. Acks are cumulative, so one that overtakes another on a different lane
 * only makes the older one stale.
 */
final class OutboundLanes implements AutoCloseable {
    static final long STRIPE_MIN_BYTES = 256 * 1024;
    private static final long CHUNK_ALIGN_BYTES = 64 * 1024;

    private final OutboundLane[] lanes;
    private final AtomicLong deferredAck = new AtomicLong(NO_ACK);

    OutboundLanes(List<OutboundLane> lanes) {
        this.lanes = lanes.toArray(OutboundLane[]::new);
    }

    int count() {
        return lanes.length;
    }

    static long chunkBytes(long msgLength, int laneCount) {
        if (laneCount == 1 || msgLength <= STRIPE_MIN_BYTES) return Math.max(1, Math.min(msgLength, MAX_CHUNK_BYTES));
        long perLane = (msgLength + laneCount - 1) / laneCount;
        long aligned = (perLane + CHUNK_ALIGN_BYTES - 1) / CHUNK_ALIGN_BYTES * CHUNK_ALIGN_BYTES;
        return Math.min(aligned, MAX_CHUNK_BYTES);
    }

    /**
     * Queues a message carrying {@code msgLength} bytes from {@code sourceOffset} in {@code source}
     * (SEND, WRITE, WRITE_IMM, READ_RESPONSE); see {@link OutFrame#payload} for how frames hold it.
     * Returns whether the message was one frame and that frame reached the kernel during this call.
     */
    boolean send(byte type, long seq, MemorySegment source, long sourceOffset, long msgLength, long remoteAddress, int rkey,
              int imm, long recvIndex) {
        long chunk = chunkBytes(msgLength, lanes.length);
        int lane = (int) Long.remainderUnsigned(seq, lanes.length);
        long offset = 0;
        boolean left = true;
        do {
            int length = (int) Math.min(chunk, msgLength - offset);
            OutboundLane l = lanes[lane];
            OutFrame f = l.obtain();
            f.codec.encode(type, (byte) 0, length, seq, msgLength, offset, remoteAddress, rkey, imm, recvIndex);
            if (offset == 0) f.codec.ack(takeDeferredAck());
            if (length > 0) f.payload(source, sourceOffset + offset, length);
            left &= l.submit(f);
            offset += length;
            lane = lane + 1 == lanes.length ? 0 : lane + 1;
        } while (offset < msgLength);
        return left && chunk >= msgLength;
    }

    void sendReadRequest(long seq, long length, long remoteAddress, int rkey) {
        OutboundLane l = lanes[(int) Long.remainderUnsigned(seq, lanes.length)];
        OutFrame f = l.obtain();
        f.codec.encode(TYPE_READ_REQUEST, (byte) 0, 0, seq, length, 0, remoteAddress, rkey, 0, 0);
        f.codec.ack(takeDeferredAck());
        l.submit(f);
    }

    /** Every request of the peer up to {@code seq} is delivered; say so with the next frame that leaves. */
    void deferAck(long seq) {
        deferredAck.accumulateAndGet(seq, Math::max);
    }

    /** Sends the deferred acknowledgement, if any, as an ACK frame now. */
    void flushAck() {
        long seq = takeDeferredAck();
        if (seq != NO_ACK) lanes[0].ack(seq);
    }

    private long takeDeferredAck() {
        return deferredAck.get() == NO_ACK ? NO_ACK : deferredAck.getAndSet(NO_ACK);
    }

    void nak(long seq, byte status, String detail) {
        byte[] text = detail.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(text.length, MAX_DETAIL_BYTES);
        OutFrame f = lanes[0].obtain();
        f.codec.encodeNak(seq, status, n);
        f.payload(ByteBuffer.wrap(text, 0, n));
        lanes[0].submitControl(f);
    }

    /** Whether some lane's sender thread is busy writing bulk data. */
    boolean sending() {
        for (OutboundLane l : lanes) if (l.sending()) return true;
        return false;
    }

    /** Every lane finishes its control frames, then shuts its output. */
    void shutdown() {
        for (OutboundLane l : lanes) l.shutdown();
    }

    @Override
    public void close() {
        for (OutboundLane l : lanes) l.close();
    }
}
