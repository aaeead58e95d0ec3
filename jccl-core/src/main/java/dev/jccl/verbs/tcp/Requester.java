package dev.jccl.verbs.tcp;

import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.BasicCompletionQueue;
import dev.jccl.verbs.base.OutstandingSends;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;

/**
 * The requester half of a queue pair: posts the send queue's work requests as frames and completes
 * them, in order, from the peer's replies.
 *
 * <p>Sequence numbers on the wire are {@code psn + n} for the n-th posted request. A SEND or WRITE
 * completes when the peer's cumulative ACK covers it; a READ when all of its response bytes have
 * landed here (an ACK only says the peer executed it). Completion walks the outstanding requests from
 * the oldest and stops at the first that is not done, so completions keep posting order. A NAK
 * completes its request with the error and flushes the rest (done by the queue pair, through
 * {@link #fail}).
 *
 * <p>Inline requests. A payload of at most {@link OutFrame#COPY_MAX_BYTES} is copied into its frame
 * during the post ({@link OutFrame}), so the caller may reuse the buffer at once, as with
 * {@code IBV_SEND_INLINE}. When a SEND, WRITE or WRITE_WITH_IMM of at most {@code inlineMaxBytes}
 * (a queue pair of the collectives: any size) left for the kernel whole during the post, the kernel
 * has every byte and the request is done locally: it completes as soon as every earlier request has, without
 * waiting for the peer's ACK (the send queue slot is free again, and what is in flight stays bounded,
 * since a frame still queued on a lane is never done early). The price is where an error shows: if
 * the peer refuses a request that already completed, the refusal lands on the oldest request still
 * outstanding, or, when there is none, only in the queue pair's move to ERR (posted receives flush,
 * naming the refusal). {@code inlineMaxBytes} 0 keeps RC's contract: everything waits for its ACK.
 *
 * <p>Lazy acks. Such a request whose payload is copied into its frame (up to {@link OutFrame#GATHER_MAX_BYTES})
 * says {@code REQ_ACK_LAZY}: the peer holds its ack for a reply to carry ({@code OutboundLanes}). A larger one
 * more often waits on its lane, then for its ack, which must come at once. With 8 KiB as the limit, a 16-64 KiB
 * chunk cost each side an ACK frame per call, a write here and a read at the peer.
 */
final class Requester {
    private static final class PendingRead {
        final long seq;
        final MemorySegment sink;
        long landedBytes;
        boolean answered;

        PendingRead(long seq, MemorySegment sink) {
            this.seq = seq;
            this.sink = sink;
        }

        boolean done() {
            return answered && landedBytes == sink.byteSize();
        }
    }

    private final OutstandingSends outstanding;
    private final BasicCompletionQueue cq;
    private final int qpn;
    private final long psn;
    private final ArrayDeque<PendingRead> reads = new ArrayDeque<>(); // guarded by this, oldest first
    private long posted;            // guarded by this: requests handed to the lanes
    private long ackedThrough = -1; // guarded by this
    private boolean failed;         // guarded by this
    private String failDetail = ""; // guarded by this
    private long nextRecvIndex;     // posting thread only
    private final long inlineMaxBytes;
    private final long lazyMaxBytes; // up to this, a request is copied and may complete at its post: REQ_ACK_LAZY
    private final int window; // requests the peer admits beyond what it acknowledged: depth, plus the lead below
    private final int lead;   // how many requests may complete locally beyond the peer's ACK
    private final boolean[] localDone; // guarded by this, indexed by n % depth: inline request n left at its post
    private long completedThrough = -1; // guarded by this: every request up to here has its completion

    Requester(int depth, BasicCompletionQueue cq, int qpn, int psn) {
        this(depth, cq, qpn, psn, 0);
    }

    Requester(int depth, BasicCompletionQueue cq, int qpn, int psn, long inlineMaxBytes) {
        this.outstanding = new OutstandingSends(depth);
        this.cq = cq;
        this.qpn = qpn;
        this.psn = psn;
        this.inlineMaxBytes = inlineMaxBytes;
        this.lazyMaxBytes = Math.min(inlineMaxBytes, OutFrame.GATHER_MAX_BYTES);
        this.localDone = new boolean[depth];
        // A request completed locally frees its slot before the peer acknowledged it: the peer must admit
        // that many more unacknowledged requests, or the poster would run past its window.
        this.window = inlineMaxBytes > 0 ? (int) Math.min(2L * depth, MAX_WINDOW) : depth;
        this.lead = window - depth;
    }

    /** The window to announce to the peer: how many unacknowledged requests it must admit. */
    int window() {
        return window;
    }

    /**
     * Returns false when the send queue is full. The request's local memory is {@code wr.length()}
     * bytes at {@code localOffset} in {@code local}, already resolved and checked; nothing of
     * {@code wr} is kept (the poster may reuse it).
     */
    boolean post(SendWr wr, MemorySegment local, long localOffset, OutboundLanes lanes) {
        long n = outstanding.add(wr.wrId(), wr.opcode(), wr.length(), wr.signaled());
        if (n == OutstandingSends.FULL) return false;
        if (admit(n, wr, local, localOffset)) sendNow(wr, n, local, localOffset, lanes);
        return true;
    }

    /**
     * Posts two requests as one list ({@code QueuePair.postSend(first, second)}): both frames are queued
     * before either is written, so they leave in one system call ({@link FrameBatch}; a large payload
     * in a second). Only for a SEND, WRITE or WRITE_WITH_IMM of one frame each. Returns how many were posted.
     */
    int postPair(SendWr a, MemorySegment localA, long offsetA, SendWr b, MemorySegment localB, long offsetB, OutboundLanes lanes) {
        long na = outstanding.add(a.wrId(), a.opcode(), a.length(), a.signaled());
        if (na == OutstandingSends.FULL) return 0;
        long nb = outstanding.add(b.wrId(), b.opcode(), b.length(), b.signaled());
        if (nb == OutstandingSends.FULL) {
            if (admit(na, a, localA, offsetA)) sendNow(a, na, localA, offsetA, lanes);
            return 1;
        }
        if (!admit(na, a, localA, offsetA) || !admit(nb, b, localB, offsetB)) return 2; // failed: both flushed
        OutboundLane laneA = lanes.laneOf(psn + na, a.length());
        OutboundLane laneB = lanes.laneOf(psn + nb, b.length());
        long ticketA = frame(a, na, localA, offsetA, lanes, laneA);
        long ticketB = frame(b, nb, localB, offsetB, lanes, laneB);
        laneA.pump();
        if (laneB != laneA) laneB.pump();
        if (ticketA > 0 && laneA.left(ticketA)) leftAtPost(a, na);
        if (ticketB > 0 && laneB.left(ticketB)) leftAtPost(b, nb);
        return 2;
    }

    /** Sends request {@code n}'s frames now; an inline one whose frame left during the call is done. */
    private void sendNow(SendWr wr, long n, MemorySegment local, long offset, OutboundLanes lanes) {
        if (frame(wr, n, local, offset, lanes, null) == LEFT) leftAtPost(wr, n);
    }

    /** Request {@code n}'s one frame reached the kernel during its post: an inline request needs no ACK. */
    private void leftAtPost(SendWr wr, long n) {
        if (wr.length() <= inlineMaxBytes) doneLocally(n);
    }

    /** Takes request {@code n} into the posted ones; false if the queue pair failed, which flushed it. */
    private boolean admit(long n, SendWr wr, MemorySegment local, long localOffset) {
        synchronized (this) {
            if (failed) {
                outstanding.flush(cq, qpn, failDetail);
                return false;
            }
            posted = n + 1;
            if (wr.opcode() == Opcode.RDMA_READ) reads.addLast(new PendingRead(n, local.asSlice(localOffset, wr.length())));
        }
        return true;
    }

    private static final long LEFT = 1;

    /**
     * The frames of request {@code n}: sent now when {@code queueOn} is null (returns {@link #LEFT} if the
     * message was one frame that reached the kernel during this call, else 0), or its one frame queued on
     * {@code queueOn} (returns the lane's ticket). An inline request whose payload is copied completes here once
     * its frame leaves, so the peer may hold its ack for a reply to carry; a larger one often waits for the sender
     * thread, and then for its ack: that ack must not wait.
     */
    private long frame(SendWr wr, long n, MemorySegment local, long offset, OutboundLanes lanes, OutboundLane queueOn) {
        long seq = psn + n;
        long length = wr.length();
        byte ack = length <= lazyMaxBytes ? REQ_ACK_LAZY : 0;
        Opcode op = wr.opcode();
        if (op == Opcode.RDMA_READ) {
            lanes.sendReadRequest(seq, length, wr.remoteAddress(), wr.rkey());
            return 0;
        }
        byte type = op == Opcode.SEND ? TYPE_SEND : op == Opcode.RDMA_WRITE ? TYPE_WRITE : TYPE_WRITE_IMM;
        long remote = op == Opcode.SEND ? 0 : wr.remoteAddress();
        int rkey = op == Opcode.SEND ? 0 : wr.rkey();
        int imm = op == Opcode.RDMA_WRITE_WITH_IMM ? wr.imm() : 0;
        long recvIndex = op == Opcode.RDMA_WRITE ? 0 : nextRecvIndex++; // the receive it consumes at the peer
        if (queueOn != null) return lanes.queue(queueOn, type, ack, seq, local, offset, length, remote, rkey, imm, recvIndex);
        return lanes.send(type, ack, seq, local, offset, length, remote, rkey, imm, recvIndex) ? LEFT : 0;
    }

    /** Inline request {@code n} left whole during its post: it needs no ACK to complete. */
    private synchronized void doneLocally(long n) {
        if (failed || n <= completedThrough) return;
        localDone[(int) (n % localDone.length)] = true;
        complete();
    }

    /**
     * A request posted after the queue pair moved to ERR: it completes with WR_FLUSH_ERR, after every
     * earlier request. Once {@link #fail} has run, it is flushed at once; before (the thread moving the
     * queue pair to ERR is on its way to {@code fail}), it waits in the outstanding requests and that
     * call flushes it behind the failing one. Nothing is sent. Returns false when the send queue is full.
     */
    boolean postInError(SendWr wr) {
        if (outstanding.add(wr.wrId(), wr.opcode(), wr.length(), wr.signaled()) == OutstandingSends.FULL) return false;
        synchronized (this) {
            if (failed) outstanding.flush(cq, qpn, failDetail);
        }
        return true;
    }

    /**
     * The peer delivered every request up to {@code wireSeq}. Acks are cumulative and may arrive out of
     * order across lanes, so an older one is ignored; one for a request never posted is malformed.
     */
    synchronized void onAck(long wireSeq) throws MalformedFrameException {
        if (failed) return;
        long n = wireSeq - psn;
        if (n >= posted || n < -1) {
            throw new MalformedFrameException("ACK for seq " + wireSeq + " outside [" + (psn - 1) + ", "
                    + (psn + posted) + ")");
        }
        if (n <= ackedThrough) return;
        ackedThrough = n;
        complete();
    }

    /** Where a READ_RESPONSE chunk lands: its part of the READ's local memory, or DISCARD after a failure. */
    synchronized MemorySegment beginReadResponse(FrameCodec h) throws MalformedFrameException {
        if (failed) return InboundStream.DISCARD;
        return pendingRead(h.seq() - psn, h.msgLength()).sink.asSlice(h.chunkOffset(), h.chunkLength());
    }

    /** The chunk begun by {@link #beginReadResponse} has landed. */
    synchronized void endReadResponse(FrameCodec h) throws MalformedFrameException {
        if (failed) return;
        PendingRead r = pendingRead(h.seq() - psn, h.msgLength());
        r.answered = true;
        r.landedBytes += h.chunkLength();
        if (r.landedBytes > r.sink.byteSize()) {
            throw new MalformedFrameException("READ seq " + h.seq() + " answered with " + r.landedBytes
                    + " bytes, more than the " + r.sink.byteSize() + " requested");
        }
        complete();
    }

    /**
     * Checks a NAK's sequence number and takes it as an ack of everything before it (the responder
     * refuses a request only after delivering every earlier one); returns the request number it refuses.
     */
    synchronized long nakTarget(long wireSeq) throws MalformedFrameException {
        long n = wireSeq - psn;
        if (!failed && (n <= ackedThrough || n >= posted)) {
            throw new MalformedFrameException("NAK for seq " + wireSeq + " outside (" + (psn + ackedThrough) + ", "
                    + (psn + posted) + ")");
        }
        if (!failed) onAck(wireSeq - 1);
        return n;
    }

    /** Completes request {@code n} with {@code status} (n = -1: none) and flushes every other one. */
    synchronized void fail(long n, WcStatus status, String detail) {
        if (failed) return;
        failed = true;
        failDetail = detail;
        reads.clear();
        // A refused inline request may have completed already: its error goes to the oldest one left.
        outstanding.fail(n >= 0 && n <= completedThrough ? completedThrough + 1 : n, status, detail, cq, qpn);
    }

    private PendingRead pendingRead(long n, long msgLength) throws MalformedFrameException {
        for (PendingRead r : reads) {
            if (r.seq == n) {
                if (r.sink.byteSize() != msgLength) {
                    throw new MalformedFrameException("READ_RESPONSE seq " + (psn + n) + " says " + msgLength
                            + " bytes, the READ asked for " + r.sink.byteSize());
                }
                return r;
            }
        }
        throw new MalformedFrameException("READ_RESPONSE for seq " + (psn + n) + ", which is no outstanding READ");
    }

    /**
     * Caller holds the monitor. Completes from the oldest request while it is done: acknowledged, or
     * an inline request done locally, and never past a READ whose data has not all landed.
     */
    private void complete() {
        while (true) {
            PendingRead r = reads.peekFirst();
            long limit = r == null ? posted - 1 : r.seq - 1;
            long through = Math.max(completedThrough, Math.min(ackedThrough, limit));
            while (through < limit && through + 1 - ackedThrough <= lead && localDone[(int) ((through + 1) % localDone.length)]) {
                through++;
            }
            for (long k = completedThrough + 1; k <= through; k++) localDone[(int) (k % localDone.length)] = false;
            completedThrough = Math.max(completedThrough, through);
            outstanding.ackThrough(completedThrough, cq, qpn);
            if (r == null || !r.done()) return;
            if (!outstanding.completeHeadIf(r.seq, WcOpcode.RDMA_READ, cq, qpn)) return;
            completedThrough = r.seq;
            reads.pollFirst();
        }
    }
}
