package dev.jccl.verbs.shm;

import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import dev.jccl.verbs.base.BasicCompletionQueue;

import static dev.jccl.verbs.shm.QpFileDescriptor.NOTIFY_LOC_LEN_ERR;
import static dev.jccl.verbs.shm.QpFileDescriptor.NOTIFY_OK;
import static dev.jccl.verbs.shm.QpFileDescriptor.NOTIFY_RECV;
import static dev.jccl.verbs.shm.QpFileDescriptor.NOTIFY_RECV_WITH_IMM;

/**
 * The receive side of one queue pair: posts receives into the shared receive ring and turns the
 * peer's notifications into completions on the receive CQ, in posting order (RC order).
 *
 * <p>Guarded by this object's monitor (the "receive lock"). Lock order: a thread that holds the
 * queue pair's send lock may take this one, never the reverse; {@link #drain} therefore reports a
 * failure through {@link #takeFailure()} instead of moving the queue pair to ERR itself.
 */
final class ShmRecvQueue {
    private final QpFileCodec file;
    private final LocalSges sges;
    private final BasicCompletionQueue cq;
    private final int qpn;
    private final int depth;
    private final long[] wrIds;
    private final long[] lengths;
    private long posted;    // receives written to the ring
    private long completed; // receives completed (notified or flushed)
    private boolean flushed;
    private boolean closed;
    private String failure;

    ShmRecvQueue(QpFileCodec file, LocalSges sges, BasicCompletionQueue cq, int qpn) {
        this.file = file;
        this.sges = sges;
        this.cq = cq;
        this.qpn = qpn;
        this.depth = file.capacity();
        this.wrIds = new long[depth];
        this.lengths = new long[depth];
    }

    /**
     * Publishes a receive into the shared ring. Returns false when {@code depth} receives are
     * outstanding; after a flush, completes it at once with WR_FLUSH_ERR. Its buffer must be shared
     * memory: the peer copies a SEND straight into it.
     */
    synchronized boolean post(RecvWr wr) {
        if (flushed) {
            cq.push(wr.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, false, qpn, "qp " + qpn + " is in ERR");
            return true;
        }
        Sge sge = wr.local();
        long offset = sges.resolve(sge, true);
        int allocId = -1;
        long fileOffset = 0;
        if (sge.length() > 0) {
            SharedAllocations.Allocation a = sges.allocation();
            if (a == null) {
                throw new VerbsException(String.format("qp %d: receive buffer [0x%x, +%d) is private memory; the peer "
                        + "copies a SEND straight into the receive buffer, so it must come from "
                        + "ProtectionDomain.allocate()", qpn, sge.address(), sge.length()));
            }
            allocId = a.allocId();
            fileOffset = sges.segment().address() + offset - a.base();
        }
        if (posted - completed >= depth) return false;
        int i = (int) (posted % depth);
        wrIds[i] = wr.wrId();
        lengths[i] = sge.length();
        file.postRecv(posted, allocId, fileOffset, sge.length());
        posted++;
        return true;
    }

    /** Completes onto the CQ every receive the peer has notified; returns how many. */
    synchronized int drain() {
        return drain(null, 0);
    }

    /**
     * Writes the completions of the receives the peer has notified straight into {@code out} from
     * index {@code from}, as many as fit, and returns how many: the consumer polling the receive CQ
     * gets them without a detour through the CQ's ring. What does not fit stays notified for the
     * next poll.
     */
    synchronized int drainInto(WorkCompletion[] out, int from) {
        return from >= out.length ? 0 : drain(out, from);
    }

    /** Caller holds the monitor. Into {@code out} from {@code from} (as many as fit), or onto the CQ when null. */
    private int drain(WorkCompletion[] out, int from) {
        if (closed || flushed) return 0;
        long tail = file.notifyTail(); // acquire: the entries and the payload written before it are visible
        if (tail == completed) return 0;
        if (tail < completed || tail > posted) {
            failure = "peer notified up to receive " + tail + " but only " + posted + " were posted (" + completed
                    + " completed): its rings are corrupt";
            return 0;
        }
        int n = 0;
        for (; completed < tail && (out == null || from + n < out.length); completed++, n++) {
            long k = completed;
            int slot = (int) (k % depth);
            int status = file.notifyStatus(k);
            int opcode = file.notifyOpcode(k);
            long byteLen = file.notifyByteLen(k);
            // A SEND's byte count is what the application reads from its buffer: never more than it holds (a
            // WRITE_WITH_IMM's counts the bytes written into a region, whatever the receive's size).
            if (file.notifyRecvSeq(k) != k || (status != NOTIFY_OK && status != NOTIFY_LOC_LEN_ERR)
                    || (opcode != NOTIFY_RECV && opcode != NOTIFY_RECV_WITH_IMM) || byteLen < 0
                    || (status == NOTIFY_OK && opcode == NOTIFY_RECV && byteLen > lengths[slot])) {
                failure = "peer's notification " + k + " is malformed (receive " + file.notifyRecvSeq(k) + ", status " + status
                        + ", opcode " + opcode + ", " + byteLen + " bytes into a " + lengths[slot] + "-byte buffer)";
                break;
            }
            boolean withImm = opcode == NOTIFY_RECV_WITH_IMM;
            WcOpcode op = withImm ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV;
            if (status == NOTIFY_OK) {
                complete(out, from + n, wrIds[slot], WcStatus.SUCCESS, op, byteLen, file.notifyImm(k), withImm, "");
            } else {
                String why = "incoming SEND of " + byteLen + " bytes exceeds the " + lengths[slot]
                        + "-byte receive buffer";
                complete(out, from + n, wrIds[slot], WcStatus.LOC_LEN_ERR, op, 0, 0, false, why);
                if (failure == null) failure = "qp " + qpn + ": " + why;
            }
        }
        file.consumedNotifications(completed);
        return n;
    }

    private void complete(WorkCompletion[] out, int i, long wrId, WcStatus status, WcOpcode op, long byteLen, int imm,
                          boolean withImm, String detail) {
        if (out == null) cq.push(wrId, status, op, byteLen, imm, withImm, qpn, detail);
        else out[i].set(wrId, status, op, byteLen, imm, withImm, qpn, detail);
    }

    /** How many receives the peer has notified that are not completed yet (for the CQ's overrun check). */
    synchronized long notified() {
        if (closed || flushed) return 0;
        long tail = file.notifyTail();
        // A tail outside what was posted is the peer's corruption, not the application's CQ sizing: drain
        // reports it and the queue pair goes to ERR, instead of the poll failing with a CQ overrun.
        return tail < completed || tail > posted ? 0 : tail - completed;
    }

    /** The failure {@link #drain} found (the queue pair must go to ERR), cleared on read. */
    synchronized String takeFailure() {
        String f = failure;
        failure = null;
        return f;
    }

    /**
     * Completes what the peer already delivered, then flushes every other posted receive. The caller
     * made sure the peer no longer consumes receives (see ShmQueuePair#toError).
     */
    synchronized void flush(String why) {
        drain();
        flushed = true;
        for (; completed < posted; completed++) {
            cq.push(wrIds[(int) (completed % depth)], WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, false, qpn, why);
        }
    }

    /** After this the ring file may be unmapped. */
    synchronized void close() {
        closed = true;
        flushed = true;
    }
}
