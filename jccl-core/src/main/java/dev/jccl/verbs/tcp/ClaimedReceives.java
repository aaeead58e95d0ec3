package dev.jccl.verbs.tcp;

import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.BasicCompletionQueue;
import dev.jccl.verbs.base.ReceiveQueue;

import java.lang.foreign.MemorySegment;

/**
 * Posted receives of a queue pair, matched to incoming messages by index: the k-th SEND or
 * WRITE_WITH_IMM the peer posts consumes the k-th receive posted here, whatever socket its first
 * chunk arrives on. Chunks of different messages may arrive out of order across sockets, so a receive
 * is <em>claimed</em> (taken from the {@link ReceiveQueue}, oldest first, together with every older one)
 * when a message first needs it, and <em>completed</em> in message order.
 *
 * <p>Every receive completes exactly once: by {@link #complete} or by {@link #flush}, both under this
 * monitor. After a flush, newly posted receives complete at once with WR_FLUSH_ERR. The depth counts
 * claimed receives too, so no more than {@code depth} are ever outstanding.
 */
final class ClaimedReceives {
    private final ReceiveQueue queue;
    private final int depth;
    private final BasicCompletionQueue cq;
    private final int qpn;
    // ring of claimed receives, guarded by this: wr_id and memory side by side, so claiming allocates nothing
    private long[] claimedWrIds = new long[16];
    private MemorySegment[] claimedBuffers = new MemorySegment[16];
    private int head;        // ring slot of index `base`
    private long base;       // index of the oldest claimed receive that has not completed
    private int count;       // claimed and not completed
    private boolean flushed;
    private String flushDetail = "";

    ClaimedReceives(int depth, BasicCompletionQueue cq, int qpn) {
        this.queue = new ReceiveQueue(depth);
        this.depth = depth;
        this.cq = cq;
        this.qpn = qpn;
    }

    /** Returns false when {@code depth} receives are outstanding. */
    synchronized boolean post(long wrId, MemorySegment buffer) {
        if (flushed) {
            cq.push(wrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, false, qpn, flushDetail);
            return true;
        }
        if (queue.size() + count >= depth) return false;
        return queue.offer(wrId, buffer);
    }

    /**
     * Claims the receive for message index {@code k} (see {@link #buffer}, {@link #wrId}); false when it
     * has not been posted yet (or the queue pair was flushed). {@code window} bounds how far ahead of
     * completion a peer may claim: at most one receive per message not yet delivered before this one.
     */
    synchronized boolean claim(long k, int window) throws MalformedFrameException {
        if (flushed) return false;
        if (k < base || k - base >= window) {
            throw new MalformedFrameException("recvIndex " + k + " outside [" + base + ", " + base + "+" + window + ")");
        }
        while (base + count <= k) {
            if (queue.isEmpty()) return false;
            if (count == claimedWrIds.length) grow();
            int i = (head + count) & (claimedWrIds.length - 1);
            claimedWrIds[i] = queue.headWrId();
            claimedBuffers[i] = queue.headBuffer();
            queue.removeHead();
            count++;
        }
        return true;
    }

    /** Index of the oldest claimed receive not completed yet: the one the next two-sided message must consume. */
    synchronized long nextToComplete() {
        return base;
    }

    /** The memory of claimed receive {@code k} ({@link #claim} returned true for it). */
    synchronized MemorySegment buffer(long k) {
        return claimedBuffers[(int) ((head + (k - base)) & (claimedWrIds.length - 1))];
    }

    /** The wr_id of claimed receive {@code k}. */
    synchronized long wrId(long k) {
        return claimedWrIds[(int) ((head + (k - base)) & (claimedWrIds.length - 1))];
    }

    /** Completes the oldest claimed receive, which must be index {@code k} (messages complete in order). */
    synchronized void complete(long k, WcStatus status, WcOpcode opcode, long byteLen, int imm, boolean hasImm,
                               String detail) {
        if (flushed) return;
        if (count == 0 || k != base) {
            throw new IllegalStateException("qp " + qpn + ": receive " + k + " completes out of order (oldest claimed: "
                    + (count == 0 ? "none" : base) + ")");
        }
        long wrId = claimedWrIds[head];
        claimedBuffers[head] = null;
        head = (head + 1) & (claimedWrIds.length - 1);
        base++;
        count--;
        cq.push(wrId, status, opcode, byteLen, imm, hasImm, qpn, detail);
    }

    /** Completes every claimed, then every posted receive with WR_FLUSH_ERR, oldest first. */
    synchronized void flush(String detail) {
        if (flushed) return;
        flushed = true;
        flushDetail = detail;
        while (count > 0) {
            long wrId = claimedWrIds[head];
            claimedBuffers[head] = null;
            head = (head + 1) & (claimedWrIds.length - 1);
            base++;
            count--;
            cq.push(wrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, false, qpn, detail);
        }
        queue.flush(cq, qpn, detail);
    }

    /** Whether the queue pair was flushed: no receive will ever be posted for a stalled message. */
    synchronized boolean isFlushed() {
        return flushed;
    }

    private void grow() {
        int n = claimedWrIds.length;
        long[] wrIds = new long[n * 2];
        MemorySegment[] buffers = new MemorySegment[n * 2];
        for (int i = 0; i < count; i++) {
            wrIds[i] = claimedWrIds[(head + i) & (n - 1)];
            buffers[i] = claimedBuffers[(head + i) & (n - 1)];
        }
        claimedWrIds = wrIds;
        claimedBuffers = buffers;
        head = 0;
    }
}
