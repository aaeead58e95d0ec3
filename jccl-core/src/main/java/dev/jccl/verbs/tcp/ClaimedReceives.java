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
    private ReceiveQueue.Posted[] claimed = new ReceiveQueue.Posted[16]; // ring, guarded by this
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
     * The receive for message index {@code k}, or null when it has not been posted yet (or the queue
     * pair was flushed). {@code window} bounds how far ahead of completion a peer may claim.
     */
    synchronized ReceiveQueue.Posted claim(long k, int window) throws MalformedFrameException {
        if (flushed) return null;
        if (k < base || k - base >= window) {
            throw new MalformedFrameException("recvIndex " + k + " outside [" + base + ", " + base + "+" + window + ")");
        }
        while (base + count <= k) {
            ReceiveQueue.Posted p = queue.poll();
            if (p == null) return null;
            if (count == claimed.length) grow();
            claimed[(head + count) & (claimed.length - 1)] = p;
            count++;
        }
        return claimed[(int) ((head + (k - base)) & (claimed.length - 1))];
    }

    /** Completes the oldest claimed receive, which must be index {@code k} (messages complete in order). */
    synchronized void complete(long k, WcStatus status, WcOpcode opcode, long byteLen, int imm, boolean hasImm,
                               String detail) {
        if (flushed) return;
        if (count == 0 || k != base) {
            throw new IllegalStateException("qp " + qpn + ": receive " + k + " completes out of order (oldest claimed: "
                    + (count == 0 ? "none" : base) + ")");
        }
        ReceiveQueue.Posted p = claimed[head];
        claimed[head] = null;
        head = (head + 1) & (claimed.length - 1);
        base++;
        count--;
        cq.push(p.wrId(), status, opcode, byteLen, imm, hasImm, qpn, detail);
    }

    /** Completes every claimed, then every posted receive with WR_FLUSH_ERR, oldest first. */
    synchronized void flush(String detail) {
        if (flushed) return;
        flushed = true;
        flushDetail = detail;
        while (count > 0) {
            ReceiveQueue.Posted p = claimed[head];
            claimed[head] = null;
            head = (head + 1) & (claimed.length - 1);
            base++;
            count--;
            cq.push(p.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, false, qpn, detail);
        }
        queue.flush(cq, qpn, detail);
    }

    /** Whether the queue pair was flushed: no receive will ever be posted for a stalled message. */
    synchronized boolean isFlushed() {
        return flushed;
    }

    private void grow() {
        ReceiveQueue.Posted[] bigger = new ReceiveQueue.Posted[claimed.length * 2];
        for (int i = 0; i < count; i++) bigger[i] = claimed[(head + i) & (claimed.length - 1)];
        claimed = bigger;
        head = 0;
    }
}
