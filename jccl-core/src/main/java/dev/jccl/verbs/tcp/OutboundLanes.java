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
 * <p>Which lane. With one socket everything shares it. With more, lane 0 carries the small
 * messages (up to {@link #LATENCY_MAX_BYTES}: a collective's small chunks and its credits) and the
 * standalone ACKs and NAKs, in the order they are issued, while larger messages go on the other
 * lanes, taken round-robin by sequence number; one over {@link #STRIPE_MIN_BYTES} is cut into
 * contiguous chunks dealt to those lanes in turn, one per lane when that fits
 * {@link FrameDescriptor#MAX_CHUNK_BYTES}, so every bulk socket streams in parallel.
 *
 * <p>Why: on one TCP stream a credit queued behind a 512 KiB chunk reaches the peer only once the
 * peer has read the whole chunk, and the peer's next chunk waits for that credit. With small messages
 * dealt round-robin over 2 sockets (as once here) half the credits overtook the bulk data, and
 * 512 KiB-4 MiB allreduces over tcp ran 1.2-1.8x faster than on one socket, but an 8 B-64 KiB
 * allreduce ran 1.5-2.3x slower: spread over sockets, a small exchange's frames neither leave in one
 * gathering write nor carry TCP's acknowledgement of the other direction, and the peer reads each
 * socket apart. A lane of its own for the small ones gives both.
 *
 * <p>Acknowledgements are deferred ({@link #deferAck}): the next request or READ_RESPONSE to leave,
 * on any lane, carries the highest deferred one in its header, and {@link #flushAck} sends what is
 * still owed as an ACK frame. Acks are cumulative, so one that overtakes another on a different lane
 * only makes the older one stale.
 *
 * <p>Lazy acks. When every request the ack covers was marked {@link FrameDescriptor#REQ_ACK_LAZY}
 * (its requester completed it when posting), a consumer's {@link #flushAckIfDue} holds it back for
 * a reply to carry, up to {@link #LAZY_ACK_DELAY_NS} or a quarter of the peer's window, whichever
 * comes first. An 8 B allreduce over tcp otherwise wrote an ACK frame per call on each side, right
 * before the next call's chunk would have carried it: one more write here and one more read at the
 * peer, per call. The requester of a lazy request still needs its acks, to keep its window open and
 * to complete a lazy frame that did not leave during its post; the window quarter and the delay
 * bound what that waits.
 */
final class OutboundLanes implements AutoCloseable {
    static final long STRIPE_MIN_BYTES = 256 * 1024;
    /** Messages up to this size go on lane 0 (see the class comment). */
    static final long LATENCY_MAX_BYTES = 64 * 1024;
    private static final long CHUNK_ALIGN_BYTES = 64 * 1024;

    /** The longest a lazy ack waits for a reply to carry it (see the class comment). */
    static final long LAZY_ACK_DELAY_NS = 500_000;

    private final OutboundLane[] lanes;
    /** The first lane of those that carry messages over {@link #LATENCY_MAX_BYTES}: 1, or 0 when there is one lane. */
    private final int firstBulk;
    private final AtomicLong deferredAck = new AtomicLong(NO_ACK);
    /** A deferred ack covers a request whose requester waits for it: send it at the next chance. */
    private volatile boolean ackUrgent;
    /** When the oldest deferred ack not yet sent was deferred; meaningful while one is deferred. */
    private volatile long ackDeferredSinceNs;
    /** The highest ack taken for a frame so far. */
    private volatile long ackSent = NO_ACK;
    /** How many delivered requests a lazy ack may leave unacknowledged: a quarter of the peer's window. */
    private volatile long lazyAckBatch = 1;

    OutboundLanes(List<OutboundLane> lanes) {
        this.lanes = lanes.toArray(OutboundLane[]::new);
        this.firstBulk = this.lanes.length == 1 ? 0 : 1;
    }

    int count() {
        return lanes.length;
    }

    OutboundLane lane(int index) {
        return lanes[index];
    }

    /** How long each frame of a message of {@code msgLength} bytes is on this queue pair's lanes. */
    private long chunkBytes(long msgLength) {
        return chunkBytes(msgLength, msgLength <= LATENCY_MAX_BYTES ? 1 : lanes.length - firstBulk);
    }

    static long chunkBytes(long msgLength, int laneCount) {
        if (laneCount == 1 || msgLength <= STRIPE_MIN_BYTES) return Math.max(1, Math.min(msgLength, MAX_CHUNK_BYTES));
        long perLane = (msgLength + laneCount - 1) / laneCount;
        long aligned = (perLane + CHUNK_ALIGN_BYTES - 1) / CHUNK_ALIGN_BYTES * CHUNK_ALIGN_BYTES;
        return Math.min(aligned, MAX_CHUNK_BYTES);
    }

    /**
     * Queues a message carrying {@code msgLength} bytes from {@code sourceOffset} in {@code source}
     * (SEND, WRITE, WRITE_IMM, READ_RESPONSE) with the header's {@code status} (a request: 0 or
     * {@link FrameDescriptor#REQ_ACK_LAZY}; a READ_RESPONSE: 0); see {@link OutFrame#payload} for how
     * frames hold it. Returns whether the message was one frame and that frame reached the kernel during this call.
     */
    boolean send(byte type, byte status, long seq, MemorySegment source, long sourceOffset, long msgLength, long remoteAddress,
              int rkey, int imm, long recvIndex) {
        long chunk = chunkBytes(msgLength);
        int lane = laneIndex(seq, msgLength);
        long offset = 0;
        boolean left = true;
        do {
            int length = (int) Math.min(chunk, msgLength - offset);
            OutboundLane l = lanes[lane];
            OutFrame f = l.obtain();
            f.codec.encode(type, status, length, seq, msgLength, offset, remoteAddress, rkey, imm, recvIndex);
            if (offset == 0) f.codec.ack(takeDeferredAck());
            if (length > 0) f.payload(source, sourceOffset + offset, length);
            left &= l.submit(f);
            offset += length;
            lane = lane + 1 == lanes.length ? firstBulk : lane + 1;
        } while (offset < msgLength);
        return left && chunk >= msgLength;
    }

    /** Whether a message of {@code msgLength} bytes travels as one frame. */
    boolean oneFrame(long msgLength) {
        return chunkBytes(msgLength) >= msgLength;
    }

    /** The lane a message of one frame with sequence number {@code seq} and {@code msgLength} bytes goes on. */
    OutboundLane laneOf(long seq, long msgLength) {
        return lanes[laneIndex(seq, msgLength)];
    }

    /** The lane a message's first frame goes on (see the class comment). */
    private int laneIndex(long seq, long msgLength) {
        return msgLength <= LATENCY_MAX_BYTES ? 0 : firstBulk + (int) Long.remainderUnsigned(seq, lanes.length - firstBulk);
    }

    /**
     * As {@link #send}, for a message of one frame ({@link #oneFrame}) on its lane {@link #laneOf(long, long)}, queued
     * without writing; returns the lane's ticket ({@link OutboundLane#queue}).
     */
    long queue(OutboundLane lane, byte type, byte status, long seq, MemorySegment source, long sourceOffset, long msgLength,
               long remoteAddress, int rkey, int imm, long recvIndex) {
        OutFrame f = lane.obtain();
        f.codec.encode(type, status, (int) msgLength, seq, msgLength, 0, remoteAddress, rkey, imm, recvIndex);
        f.codec.ack(takeDeferredAck());
        if (msgLength > 0) f.payload(source, sourceOffset, (int) msgLength);
        return lane.queue(f);
    }

    void sendReadRequest(long seq, long length, long remoteAddress, int rkey) {
        OutboundLane l = laneOf(seq, 0);
        OutFrame f = l.obtain();
        f.codec.encode(TYPE_READ_REQUEST, (byte) 0, 0, seq, length, 0, remoteAddress, rkey, 0, 0);
        f.codec.ack(takeDeferredAck());
        l.submit(f);
    }

    /** The peer may have {@code window} requests in flight; a lazy ack waits for at most a quarter of them. */
    void peerWindow(int window) {
        lazyAckBatch = Math.max(1, window / 4);
    }

    /**
     * Every request of the peer up to {@code seq} is delivered; say so with the next frame that leaves.
     * {@code urgent}: one of them was not lazy, so its requester waits for this ack.
     */
    void deferAck(long seq, boolean urgent) {
        if (deferredAck.getAndAccumulate(seq, Math::max) == NO_ACK) ackDeferredSinceNs = System.nanoTime();
        if (urgent) ackUrgent = true; // after the seq: a flush that clears the flag first sees the seq or leaves the flag
    }

    /** Sends the deferred acknowledgement, if any, as an ACK frame now. */
    void flushAck() {
        long seq = takeDeferredAck();
        if (seq != NO_ACK) lanes[0].ack(seq);
    }

    /**
     * Sends the deferred acknowledgement as an ACK frame if it cannot wait for a reply to carry it:
     * it is urgent, covers a quarter of the peer's window, or has waited {@link #LAZY_ACK_DELAY_NS}.
     */
    void flushAckIfDue(long nowNs) {
        long seq = deferredAck.get();
        if (seq == NO_ACK) return;
        if (ackUrgent || seq - ackSent >= lazyAckBatch || nowNs - ackDeferredSinceNs >= LAZY_ACK_DELAY_NS) flushAck();
    }

    private long takeDeferredAck() {
        if (deferredAck.get() == NO_ACK) return NO_ACK;
        ackUrgent = false;
        long seq = deferredAck.getAndSet(NO_ACK);
        if (seq != NO_ACK && seq > ackSent) ackSent = seq;
        return seq;
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
