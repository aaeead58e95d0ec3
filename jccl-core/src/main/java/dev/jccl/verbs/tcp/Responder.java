package dev.jccl.verbs.tcp;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.LocalRegion;
import dev.jccl.verbs.base.RegionTable;
import dev.jccl.verbs.base.RemoteAccessException;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;

/**
 * The responder half of a queue pair: executes the peer's requests as their chunks arrive, on
 * whichever thread reads them (a receiver thread, or a consumer polling its completion queue).
 *
 * <p>Per chunk, in three steps: (1) {@link #begin}: under the monitor, check the sequence number
 * against the window and record the chunk in its message's slot; outside it, check the target (rkey,
 * bounds and right for the <em>whole</em> message, so a message lands entirely or not at all; the
 * receive for a SEND or WRITE_WITH_IMM) and say where the payload goes, or that it is dropped when
 * refused; (2) the reader puts the payload there; (3) {@link #end}: under the monitor, count the bytes
 * and deliver, strictly in sequence order, every message whose bytes have all landed: raise its
 * receive completion, run a READ against memory that holds every earlier write, and defer an
 * acknowledgement (see {@link OutboundLanes}). A refused message is answered with a NAK once
 * everything before it was delivered; nothing after it is executed.
 *
 * <p>A SEND or WRITE_WITH_IMM whose receive is not posted yet is not refused at once: {@code begin}
 * returns {@link InboundStream#STALL} and is asked again, with the time of the first attempt, until
 * the receive appears or JCCL_RNR_TIMEOUT has passed (then it is refused with an RNR NAK).
 */
final class Responder {
    /** Fails the queue pair; used after a LOC_LEN_ERR, which breaks the responder as in verbs. */
    interface Breaker {
        void breakQp(String detail);
    }

    private final RegionTable regions;
    private final ClaimedReceives receives;
    private final long rnrTimeoutNs;
    private final Breaker breaker;
    private OutboundLanes lanes;       // guarded by this; set by start()
    private InboundMessage[] slots;    // guarded by this; indexed by seq & (length - 1)
    private long deliveredThrough;     // guarded by this
    private int window;                // written once by start(), before any chunk is read
    private boolean stopped;           // guarded by this
    private String peer = "";

    Responder(RegionTable regions, ClaimedReceives receives, long rnrTimeoutNs, Breaker breaker) {
        this.regions = regions;
        this.receives = receives;
        this.rnrTimeoutNs = rnrTimeoutNs;
        this.breaker = breaker;
    }

    /** Called once the queue pair is RTR: the peer's first sequence number and how far it may run ahead. */
    synchronized void start(long firstSeq, int peerWindow, OutboundLanes replyLanes, String peerName) {
        if (slots != null) return;
        deliveredThrough = firstSeq - 1;
        window = peerWindow;
        slots = new InboundMessage[Integer.highestOneBit(peerWindow - 1 | 1) << 1];
        lanes = replyLanes;
        lanes.peerWindow(peerWindow);
        peer = peerName;
    }

    /**
     * Step (1) for one chunk. {@code firstTriedNs} is 0 on the first attempt, else when it was made.
     * Returns the memory for the payload, {@link InboundStream#DISCARD}, or {@link InboundStream#STALL}.
     */
    MemorySegment begin(FrameCodec h, long firstTriedNs, InboundStream.Landing at) throws MalformedFrameException {
        InboundMessage m;
        int receivesAhead;
        synchronized (this) {
            if (stopped) return InboundStream.DISCARD;
            m = firstTriedNs == 0 ? admit(h) : slots[slot(h.seq())];
            if (m.failure != 0) return InboundStream.DISCARD; // another chunk of it was already refused
            // Each undelivered message before this one consumes at most one receive, so this one's receive
            // is at most that many past the oldest open one: the next in order when nothing is before it.
            receivesAhead = (int) (h.seq() - deliveredThrough);
        }
        return resolveTarget(h, m, firstTriedNs, at, receivesAhead);
    }

    /** Step (3): the chunk begun last on this reader has landed (or was dropped). */
    void end(FrameCodec h) throws MalformedFrameException {
        String breakDetail;
        synchronized (this) {
            if (stopped) return;
            slots[slot(h.seq())].landed(h.chunkLength());
            breakDetail = deliver();
        }
        if (breakDetail != null) breaker.breakQp(breakDetail);
    }

    /** Stops executing requests and flushes every receive. */
    void flush(String detail) {
        synchronized (this) {
            stopped = true;
        }
        receives.flush(detail);
    }

    private InboundMessage admit(FrameCodec h) throws MalformedFrameException {
        long seq = h.seq();
        if (seq <= deliveredThrough || seq - deliveredThrough > window) {
            throw new MalformedFrameException(FrameDescriptor.typeName(h.type()) + " seq " + seq
                    + " outside the window (" + deliveredThrough + ", " + deliveredThrough + "+" + window + "]");
        }
        int i = slot(seq);
        InboundMessage m = slots[i];
        if (m == null) slots[i] = m = new InboundMessage();
        m.admit(h);
        return m;
    }

    private int slot(long seq) {
        return (int) (seq & (slots.length - 1));
    }

    /**
     * Where this chunk's payload goes (from {@code at.offset}); DISCARD when the message is refused,
     * STALL while its receive is missing. A write lands in the target region's own segment, located
     * by offset, so no view is made per frame; the bounds still hold, since FrameCodec#validate put
     * the chunk inside its message and checkRemote the message inside the region.
     */
    private MemorySegment resolveTarget(FrameCodec h, InboundMessage m, long firstTriedNs, InboundStream.Landing at,
                                        int receivesAhead) throws MalformedFrameException {
        byte type = h.type();
        if (type == TYPE_READ_REQUEST) return InboundStream.DISCARD;
        MemorySegment message = null;
        long messageOffset = 0;
        if (type == TYPE_WRITE || type == TYPE_WRITE_IMM) {
            try {
                LocalRegion region = regions.checkRemote(h.remoteAddress(), h.msgLength(), h.rkey(), Access.REMOTE_WRITE);
                message = region.segment();
                messageOffset = h.remoteAddress() - region.address();
            } catch (RemoteAccessException e) {
                return refuse(m, NAK_REMOTE_ACCESS, e.getMessage());
            }
        }
        if (type == TYPE_SEND || type == TYPE_WRITE_IMM) {
            if (!receives.claim(h.recvIndex(), receivesAhead)) {
                if (!receives.isFlushed() && (firstTriedNs == 0 || System.nanoTime() - firstTriedNs < rnrTimeoutNs)) {
                    return InboundStream.STALL;
                }
                return refuse(m, NAK_RECEIVER_NOT_READY, "no receive was posted within "
                        + TimeUnit.NANOSECONDS.toMicros(rnrTimeoutNs) + " us (JCCL_RNR_TIMEOUT)");
            }
            if (type == TYPE_SEND) {
                MemorySegment buffer = receives.buffer(h.recvIndex());
                if (h.msgLength() > buffer.byteSize()) {
                    return refuse(m, NAK_RECEIVE_TOO_SMALL, "SEND of " + h.msgLength() + " bytes does not fit receive wr_id "
                            + receives.wrId(h.recvIndex()) + " of " + buffer.byteSize() + " bytes");
                }
                message = buffer;
            }
        }
        at.offset = messageOffset + h.chunkOffset();
        return message;
    }

    private synchronized MemorySegment refuse(InboundMessage m, byte status, String why) {
        m.fail(status, why);
        return InboundStream.DISCARD;
    }

    /** Caller holds the monitor. Delivers in order; returns a detail when the queue pair must break. */
    private String deliver() throws MalformedFrameException {
        boolean progressed = false;
        boolean urgent = false; // a delivered request's requester waits for its ack
        String breakDetail = null;
        while (!stopped) {
            long next = deliveredThrough + 1;
            InboundMessage m = slots[slot(next)];
            if (m == null || m.seq != next || !m.done()) break;
            if (m.failure == 0 && m.type == TYPE_READ_REQUEST) respondToRead(m);
            if ((m.type == TYPE_SEND || m.type == TYPE_WRITE_IMM) && m.failure != NAK_RECEIVER_NOT_READY
                    && m.recvIndex != receives.nextToComplete()) {
                // Two messages named one receive: the peer's numbering of its SENDs is broken.
                throw new MalformedFrameException(FrameDescriptor.typeName(m.type) + " seq " + next + " consumed receive "
                        + m.recvIndex + ", but receive " + receives.nextToComplete() + " is the next in order");
            }
            if (m.failure != 0) {
                stopped = true; // the NAK acknowledges everything before it
                progressed = false;
                if (m.failure == NAK_RECEIVE_TOO_SMALL) {
                    receives.complete(m.recvIndex, WcStatus.LOC_LEN_ERR, WcOpcode.RECV, m.msgLength, 0, false, m.detail);
                    breakDetail = "LOC_LEN_ERR: " + m.detail + " (from " + peer + ")";
                }
                lanes.nak(next, m.failure, m.detail);
                break;
            }
            if (m.type == TYPE_SEND) {
                receives.complete(m.recvIndex, WcStatus.SUCCESS, WcOpcode.RECV, m.msgLength, 0, false, "");
            } else if (m.type == TYPE_WRITE_IMM) {
                receives.complete(m.recvIndex, WcStatus.SUCCESS, WcOpcode.RECV_RDMA_WITH_IMM, m.msgLength, m.imm, true, "");
            }
            urgent |= !m.ackLazy;
            m.reset();
            deliveredThrough = next;
            progressed = true;
        }
        if (progressed) lanes.deferAck(deliveredThrough, urgent);
        return breakDetail;
    }

    private void respondToRead(InboundMessage m) {
        try {
            MemorySegment source = regions.resolveRemote(m.remoteAddress, m.msgLength, m.rkey, Access.REMOTE_READ);
            lanes.send(TYPE_READ_RESPONSE, (byte) 0, m.seq, source, 0, m.msgLength, 0, 0, 0, 0);
        } catch (RemoteAccessException e) {
            m.fail(NAK_REMOTE_ACCESS, e.getMessage());
        }
    }
}
