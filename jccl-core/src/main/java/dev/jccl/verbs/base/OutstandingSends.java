package dev.jccl.verbs.base;

import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;

/**
 * Send work requests that were posted but not yet acknowledged by the peer, oldest first. RC
 * completes them in order; an error completes the one that failed and flushes the rest.
 *
 * <p>Each entry holds a slot of the send queue until it completes, signaled or not, so the queue
 * depth bounds what is in flight, and the entries live in a ring of that depth (fields side by
 * side): posting, which a sender does for every chunk, allocates nothing. Thread-safe: the poster
 * adds, a receiver thread completes.
 */
public final class OutstandingSends {
    /** What {@link #add} returns when the send queue is full. */
    public static final long FULL = -1;

    private final int depth;
    private final long[] wrIds;
    private final Opcode[] opcodes;
    private final long[] lengths;
    private final boolean[] signaled;
    private long head; // guarded by this: sequence number of the oldest entry
    private long tail; // guarded by this: sequence number the next entry gets

    public OutstandingSends(int depth) {
        if (depth < 1) throw new IllegalArgumentException("send queue depth must be >= 1, got " + depth);
        this.depth = depth;
        this.wrIds = new long[depth];
        this.opcodes = new Opcode[depth];
        this.lengths = new long[depth];
        this.signaled = new boolean[depth];
    }

    /** Takes a send-queue slot and records the request; returns its sequence number, or {@link #FULL}. */
    public synchronized long add(long wrId, Opcode opcode, long length, boolean signaled) {
        if (tail - head >= depth) return FULL;
        int i = (int) (tail % depth);
        wrIds[i] = wrId;
        opcodes[i] = opcode;
        lengths[i] = length;
        this.signaled[i] = signaled;
        return tail++;
    }

    /** Completes every entry up to and including sequence {@code seq} successfully. */
    public void ackThrough(long seq, BasicCompletionQueue cq, int qpn) {
        while (true) {
            long wrId;
            Opcode op;
            long length;
            synchronized (this) {
                if (head == tail || head > seq) return;
                int i = (int) (head++ % depth);
                if (!signaled[i]) continue;
                wrId = wrIds[i];
                op = opcodes[i];
                length = lengths[i];
            }
            cq.push(wrId, WcStatus.SUCCESS, toWc(op), length, 0, false, qpn, "");
        }
    }

    /**
     * Completes the oldest entry successfully as {@code opcode} (e.g. a READ whose data just arrived)
     * if it has sequence {@code seq}; returns whether it did.
     */
    public synchronized boolean completeHeadIf(long seq, WcOpcode opcode, BasicCompletionQueue cq, int qpn) {
        if (head == tail || head != seq) return false;
        int i = (int) (head++ % depth);
        if (signaled[i]) cq.push(wrIds[i], WcStatus.SUCCESS, opcode, lengths[i], 0, false, qpn, "");
        return true;
    }

    /** Completes the entry {@code seq} with {@code status}, and flushes every other one. */
    public void fail(long seq, WcStatus status, String detail, BasicCompletionQueue cq, int qpn) {
        while (true) {
            long wrId;
            Opcode op;
            long s;
            synchronized (this) {
                if (head == tail) return;
                s = head;
                int i = (int) (head++ % depth);
                wrId = wrIds[i];
                op = opcodes[i];
            }
            cq.push(wrId, s == seq ? status : WcStatus.WR_FLUSH_ERR, toWc(op), 0, 0, false, qpn, detail);
        }
    }

    /** Flushes everything with WR_FLUSH_ERR. */
    public void flush(BasicCompletionQueue cq, int qpn, String detail) {
        fail(-1, WcStatus.WR_FLUSH_ERR, detail, cq, qpn);
    }

    public synchronized int size() {
        return (int) (tail - head);
    }

    public static WcOpcode toWc(Opcode op) {
        return switch (op) {
            case SEND -> WcOpcode.SEND;
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> WcOpcode.RDMA_WRITE;
            case RDMA_READ -> WcOpcode.RDMA_READ;
        };
    }
}
