package dev.jccl.verbs.base;

import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;

import java.util.ArrayDeque;

/**
 * Send work requests that were posted but not yet acknowledged by the peer, oldest first. RC
 * completes them in order; an error completes the one that failed and flushes the rest.
 *
 * <p>Each entry holds a slot of the send queue until it completes, signaled or not, so the queue
 * depth bounds what is in flight. Thread-safe: the poster adds, a receiver thread completes.
 */
public final class OutstandingSends {
    public record Entry(long wrId, Opcode opcode, long length, boolean signaled, long seq) {}

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final WorkQueueSlots slots;
    private long nextSeq; // guarded by this

    public OutstandingSends(int depth) {
        this.slots = new WorkQueueSlots(depth);
    }

    /** Takes a send-queue slot and records the request; returns null (back-pressure) when full. */
    public synchronized Entry add(long wrId, Opcode opcode, long length, boolean signaled) {
        if (!slots.tryAcquire()) return null;
        Entry e = new Entry(wrId, opcode, length, signaled, nextSeq++);
        entries.addLast(e);
        return e;
    }

    /** Completes every entry up to and including sequence {@code seq} successfully. */
    public void ackThrough(long seq, BasicCompletionQueue cq, int qpn) {
        while (true) {
            Entry e;
            synchronized (this) {
                e = entries.peekFirst();
                if (e == null || e.seq() > seq) return;
                entries.pollFirst();
                slots.release();
            }
            if (e.signaled()) cq.push(e.wrId(), WcStatus.SUCCESS, toWc(e.opcode()), e.length(), 0, false, qpn, "");
        }
    }

    /** Removes the oldest entry (e.g. a READ whose data just arrived) if it has sequence {@code seq}. */
    public synchronized Entry takeIfHead(long seq) {
        Entry e = entries.peekFirst();
        if (e == null || e.seq() != seq) return null;
        entries.pollFirst();
        slots.release();
        return e;
    }

    /** Completes the entry {@code seq} with {@code status}, and flushes every other one. */
    public void fail(long seq, WcStatus status, String detail, BasicCompletionQueue cq, int qpn) {
        while (true) {
            Entry e;
            synchronized (this) {
                e = entries.pollFirst();
                if (e == null) return;
                slots.release();
            }
            WcStatus s = e.seq() == seq ? status : WcStatus.WR_FLUSH_ERR;
            cq.push(e.wrId(), s, toWc(e.opcode()), 0, 0, false, qpn, detail);
        }
    }

    /** Flushes everything with WR_FLUSH_ERR. */
    public void flush(BasicCompletionQueue cq, int qpn, String detail) {
        fail(-1, WcStatus.WR_FLUSH_ERR, detail, cq, qpn);
    }

    public synchronized int size() {
        return entries.size();
    }

    public static WcOpcode toWc(Opcode op) {
        return switch (op) {
            case SEND -> WcOpcode.SEND;
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> WcOpcode.RDMA_WRITE;
            case RDMA_READ -> WcOpcode.RDMA_READ;
        };
    }
}
