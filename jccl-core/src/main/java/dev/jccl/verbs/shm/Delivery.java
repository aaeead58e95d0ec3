package dev.jccl.verbs.shm;

import dev.jccl.trace.DataPathCounters;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.BasicCompletionQueue;
import dev.jccl.verbs.base.OutstandingSends;

import java.lang.foreign.MemorySegment;

import static dev.jccl.verbs.shm.ControlDescriptor.RIGHT_REMOTE_READ;
import static dev.jccl.verbs.shm.ControlDescriptor.RIGHT_REMOTE_WRITE;
import static dev.jccl.verbs.shm.QpFileDescriptor.NOTIFY_LOC_LEN_ERR;
import static dev.jccl.verbs.shm.QpFileDescriptor.NOTIFY_OK;
import static dev.jccl.verbs.shm.QpFileDescriptor.NOTIFY_RECV;
import static dev.jccl.verbs.shm.QpFileDescriptor.NOTIFY_RECV_WITH_IMM;

/**
 * Carries out one send work request against a connected peer: one copy, by this thread, between
 * local memory and the peer's mapping. Used only under the send lock of its {@link ShmSendQueue}.
 *
 * <p>Two-sided requests (SEND, WRITE_WITH_IMM) consume the peer's next posted receive inside
 * {@code enter()/leave()} on the peer's queue pair file, and re-check the peer's state after
 * entering; see {@link ShmQueuePair} for why that keeps the peer from flushing a receive we are
 * filling. A WRITE_WITH_IMM checks that a receive is posted before writing anything, so RNR leaves
 * the target untouched, as the responder's RNR NAK does in InfiniBand.
 */
final class Delivery {
    static final int DONE = 0;
    static final int WAIT = 1;
    static final int FAILED = 2;

    private final RemoteContext peer;
    private final QpFileCodec peerQp;
    private final BasicCompletionQueue cq;
    private final long ownLid;
    private final int ownQpn;
    private final int peerPdId;
    private final long rnrTimeoutNs;
    private final long readyTimeoutNs;
    private final RemoteTarget target = new RemoteTarget();
    private long recvHead;   // next receive of the peer's ring we consume
    private long notifyTail; // next notification we produce
    WcStatus failStatus;
    String failDetail;

    Delivery(RemoteContext peer, QpFileCodec peerQp, BasicCompletionQueue cq, long ownLid, int ownQpn,
             long rnrTimeoutNs, long readyTimeoutNs) {
        this.peer = peer;
        this.peerQp = peerQp;
        this.cq = cq;
        this.ownLid = ownLid;
        this.ownQpn = ownQpn;
        this.peerPdId = peerQp.pdId();
        this.rnrTimeoutNs = rnrTimeoutNs;
        this.readyTimeoutNs = readyTimeoutNs;
    }

    /**
     * Runs {@code wr}, whose local memory is {@code local} from {@code localOffset} (already checked);
     * {@code firstTriedNs} is when it was first attempted (for the RNR and readiness bounds).
     */
    int execute(SendWr wr, MemorySegment local, long localOffset, long firstTriedNs) {
        int peerState = peerQp.state();
        if (peerState >= QpState.ERR.ordinal()) return fail(WcStatus.RETRY_EXC, peerGone(peerState));
        if (peerState < QpState.RTR.ordinal() || !peerQp.connectedTo(ownLid, ownQpn)) {
            if (System.nanoTime() - firstTriedNs < readyTimeoutNs) return WAIT;
            return fail(WcStatus.RETRY_EXC, "peer qp " + peerQp.qpn() + " (pid " + peer.pid() + ") is in "
                    + stateName(peerState) + " and not connected to qp " + ownQpn + " after JCCL_TIMEOUT");
        }
        Opcode op = wr.opcode();
        if (op == Opcode.RDMA_WRITE || op == Opcode.RDMA_READ) return oneSided(wr, local, localOffset, op == Opcode.RDMA_WRITE);
        peerQp.enter();
        try {
            return twoSided(wr, local, localOffset, firstTriedNs);
        } finally {
            peerQp.leave();
        }
    }

    private int oneSided(SendWr wr, MemorySegment local, long localOffset, boolean write) {
        long len = wr.length();
        if (len > 0) { // zero-length RDMA checks no rkey, as in InfiniBand
            if (!peer.regions().acquire(wr.rkey(), wr.remoteAddress(), len,
                    write ? RIGHT_REMOTE_WRITE : RIGHT_REMOTE_READ, peerPdId, target)) {
                return fail(WcStatus.REM_ACCESS_ERR, target.error);
            }
            try {
                if (write) MemorySegment.copy(local, localOffset, target.memory, target.offset, len);
                else MemorySegment.copy(target.memory, target.offset, local, localOffset, len);
                DataPathCounters.add(DataPathCounters.Counter.PROVIDER_COPY_BYTES, len);
            } finally {
                peer.regions().release(target);
            }
        }
        return complete(wr, len);
    }

    private int twoSided(SendWr wr, MemorySegment local, long localOffset, long firstTriedNs) {
        int peerState = peerQp.state(); // volatile, after enter(): the Dekker pairing with the peer's toError
        if (peerState >= QpState.ERR.ordinal()) return fail(WcStatus.RETRY_EXC, peerGone(peerState));
        long k = recvHead;
        if (peerQp.recvTail() == k) {
            if (System.nanoTime() - firstTriedNs < rnrTimeoutNs) return WAIT;
            return fail(WcStatus.RNR_RETRY_EXC, "peer qp " + peerQp.qpn() + " (pid " + peer.pid()
                    + ") had no receive posted within JCCL_RNR_TIMEOUT (" + rnrTimeoutNs / 1_000_000 + " ms)");
        }
        if (peerQp.recvSeq(k) != k || notifyTail - peerQp.notifyHead() >= peerQp.capacity()) {
            return fail(WcStatus.RETRY_EXC, "peer qp " + peerQp.qpn() + " (pid " + peer.pid() + ") has corrupt rings at receive " + k);
        }
        long len = wr.length();
        boolean withImm = wr.opcode() == Opcode.RDMA_WRITE_WITH_IMM;
        if (withImm) {
            if (len > 0) {
                if (!peer.regions().acquire(wr.rkey(), wr.remoteAddress(), len, RIGHT_REMOTE_WRITE, peerPdId, target)) {
                    return fail(WcStatus.REM_ACCESS_ERR, target.error); // receive not consumed
                }
                try {
                    MemorySegment.copy(local, localOffset, target.memory, target.offset, len);
                    DataPathCounters.add(DataPathCounters.Counter.PROVIDER_COPY_BYTES, len);
                } finally {
                    peer.regions().release(target);
                }
            }
            consume(k, NOTIFY_RECV_WITH_IMM, NOTIFY_OK, len, wr.imm());
            return complete(wr, len);
        }
        long capacity = peerQp.recvLength(k);
        if (len > capacity) {
            consume(k, NOTIFY_RECV, NOTIFY_LOC_LEN_ERR, len, 0);
            return fail(WcStatus.REM_INV_REQ_ERR, "SEND of " + len + " bytes exceeds the " + capacity
                    + "-byte receive buffer of peer qp " + peerQp.qpn() + " (pid " + peer.pid() + ")");
        }
        if (len > 0) {
            MemorySegment memory = peer.memory(peerQp.recvAllocId(k), target);
            long offset = peerQp.recvFileOffset(k);
            if (memory == null) return fail(WcStatus.REM_ACCESS_ERR, target.error);
            if (offset < 0 || offset > memory.byteSize() || len > memory.byteSize() - offset) {
                return fail(WcStatus.REM_ACCESS_ERR, "peer's receive " + k + " puts [" + offset + ", +" + len
                        + ") past its " + memory.byteSize() + "-byte backing file");
            }
            MemorySegment.copy(local, localOffset, memory, offset, len);
            DataPathCounters.add(DataPathCounters.Counter.PROVIDER_COPY_BYTES, len);
        }
        consume(k, NOTIFY_RECV, NOTIFY_OK, len, 0);
        return complete(wr, len);
    }

    /** Marks receive {@code k} consumed and notifies the peer; the release of the tail publishes the payload too. */
    private void consume(long k, int opcode, int status, long byteLen, int imm) {
        recvHead = k + 1;
        peerQp.consumedRecvs(recvHead);
        peerQp.notify(notifyTail, k, opcode, status, byteLen, imm);
        notifyTail++;
    }

    private int complete(SendWr wr, long len) {
        if (wr.signaled()) cq.push(wr.wrId(), WcStatus.SUCCESS, OutstandingSends.toWc(wr.opcode()), len, 0, false, ownQpn, "");
        return DONE;
    }

    private int fail(WcStatus status, String detail) {
        failStatus = status;
        failDetail = "qp " + ownQpn + ": " + detail;
        return FAILED;
    }

    private String peerGone(int peerState) {
        return "peer qp " + peerQp.qpn() + " (pid " + peer.pid() + ") is " + stateName(peerState);
    }

    static String stateName(int state) {
        return state == QpFileDescriptor.STATE_CLOSED ? "CLOSED"
                : state >= 0 && state < QpState.values().length ? QpState.values()[state].name() : "state " + state;
    }
}
