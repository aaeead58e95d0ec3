package dev.jccl.verbs.tcp;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.ReceiveQueue;
import dev.jccl.verbs.base.RegionTable;
import dev.jccl.verbs.base.RemoteAccessException;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;

/**
 * The responder half of a queue pair: executes the peer's requests as their chunks arrive, on
 * whichever receiver thread reads them.
 *
 * <p>Per chunk, in three steps: (1) under the monitor, check the sequence number against the window
 * and record the chunk in its message's slot; (2) outside it, check the target (rkey, bounds and
 * right for the <em>whole</em> message, so a message lands entirely or not at all; the receive for a
 * SEND or WRITE_WITH_IMM) and read the payload straight into it, or drop it when refused; (3) under
 * the monitor, count the bytes and deliver, strictly in sequence order, every message whose bytes
 * have all landed: raise its receive completion, run a READ against memory that holds every earlier
 * write, and acknowledge. A refused message is answered with a NAK once everything before it was
 * delivered; nothing after it is executed.
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
        peer = peerName;
    }

    void onRequest(FrameCodec h, ReceiverAgent in) throws IOException {
        InboundMessage m;
        boolean refused;
        synchronized (this) {
            m = stopped ? null : admit(h);
            refused = m == null || m.failure != 0; // another chunk of it was already refused
        }
        MemorySegment target = refused ? null : resolveTarget(h, m);
        in.readPayload(target, h.chunkLength());
        if (m == null) return;
        String breakDetail;
        synchronized (this) {
            if (stopped) return;
            m.landed(h.chunkLength());
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
        int i = (int) (seq & (slots.length - 1));
        InboundMessage m = slots[i];
        if (m == null) slots[i] = m = new InboundMessage();
        m.admit(h);
        return m;
    }

    /** Where this chunk's payload goes, or null (payload dropped) when the message is refused. */
    private MemorySegment resolveTarget(FrameCodec h, InboundMessage m) throws MalformedFrameException {
        byte type = h.type();
        if (type == TYPE_READ_REQUEST) return null;
        MemorySegment message = null;
        if (type == TYPE_WRITE || type == TYPE_WRITE_IMM) {
            try {
                message = regions.resolveRemote(h.remoteAddress(), h.msgLength(), h.rkey(), Access.REMOTE_WRITE);
            } catch (RemoteAccessException e) {
                return refuse(m, NAK_REMOTE_ACCESS, e.getMessage());
            }
        }
        if (type == TYPE_SEND || type == TYPE_WRITE_IMM) {
            ReceiveQueue.Posted r = receives.await(h.recvIndex(), window, rnrTimeoutNs);
            if (r == null) {
                return refuse(m, NAK_RECEIVER_NOT_READY, "no receive was posted within "
                        + TimeUnit.NANOSECONDS.toMicros(rnrTimeoutNs) + " us (JCCL_RNR_TIMEOUT)");
            }
            if (type == TYPE_SEND) {
                if (h.msgLength() > r.buffer().byteSize()) {
                    return refuse(m, NAK_RECEIVE_TOO_SMALL, "SEND of " + h.msgLength()
                            + " bytes does not fit receive wr_id " + r.wrId() + " of " + r.buffer().byteSize() + " bytes");
                }
                message = r.buffer();
            }
        }
        return message.asSlice(h.chunkOffset(), h.chunkLength());
    }

    private synchronized MemorySegment refuse(InboundMessage m, byte status, String why) {
        m.fail(status, why);
        return null;
    }

    /** Caller holds the monitor. Delivers in order; returns a detail when the queue pair must break. */
    private String deliver() {
        boolean progressed = false;
        String breakDetail = null;
        while (!stopped) {
            long next = deliveredThrough + 1;
            InboundMessage m = slots[(int) (next & (slots.length - 1))];
            if (m == null || m.seq != next || !m.done()) break;
            if (m.failure == 0 && m.type == TYPE_READ_REQUEST) respondToRead(m);
            if (m.failure != 0) {
                stopped = true;
                if (progressed) lanes.ack(deliveredThrough);
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
            m.reset();
            deliveredThrough = next;
            progressed = true;
        }
        if (progressed) lanes.ack(deliveredThrough);
        return breakDetail;
    }

    private void respondToRead(InboundMessage m) {
        try {
            MemorySegment source = regions.resolveRemote(m.remoteAddress, m.msgLength, m.rkey, Access.REMOTE_READ);
            lanes.send(TYPE_READ_RESPONSE, m.seq, source, m.msgLength, 0, 0, 0, 0);
        } catch (RemoteAccessException e) {
            m.fail(NAK_REMOTE_ACCESS, e.getMessage());
        }
    }
}
