package dev.jccl.verbs.base;

import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;

import java.lang.foreign.MemorySegment;

/**
 * Posted receives of one queue pair, consumed in order by incoming SENDs and WRITE_WITH_IMMs.
 *
 * <p>The application posts, a provider thread takes; both under this object's monitor (short
 * critical sections). Depth is enforced here: a full queue refuses the post. A ring of {@code depth}
 * (wr_id, buffer) pairs rather than a queue of records, so that posting a receive, which a sender
 * of chunks does once per chunk, allocates nothing.
 */
public final class ReceiveQueue {
    private final int depth;
    private final long[] wrIds;
    private final MemorySegment[] buffers;
    private long head; // guarded by this: next to take
    private long tail; // guarded by this: next to fill; also the count of receives ever posted

    public ReceiveQueue(int depth) {
        this.depth = depth;
        this.wrIds = new long[depth];
        this.buffers = new MemorySegment[depth];
    }

    /** Posts a receive whose memory {@code buffer} is already resolved and checked; false when full. */
    public synchronized boolean offer(long wrId, MemorySegment buffer) {
        if (tail - head >= depth) return false;
        int i = (int) (tail % depth);
        wrIds[i] = wrId;
        buffers[i] = buffer;
        tail++;
        return true;
    }

    public synchronized boolean isEmpty() {
        return head == tail;
    }

    /** The wr_id of the oldest posted receive; the queue must not be empty. */
    public synchronized long headWrId() {
        return wrIds[(int) (head % depth)];
    }

    /** The memory of the oldest posted receive; the queue must not be empty. */
    public synchronized MemorySegment headBuffer() {
        return buffers[(int) (head % depth)];
    }

    /** Drops the oldest posted receive (its taker keeps what it read of it). */
    public synchronized void removeHead() {
        if (head == tail) throw new IllegalStateException("no receive is posted");
        buffers[(int) (head % depth)] = null;
        head++;
    }

    public synchronized int size() {
        return (int) (tail - head);
    }

    /** Receives ever posted; shared-memory peers use it as a credit count. */
    public synchronized long totalPosted() {
        return tail;
    }

    /** Completes every posted receive with WR_FLUSH_ERR. */
    public void flush(BasicCompletionQueue cq, int qpn, String why) {
        while (true) {
            long wrId;
            synchronized (this) {
                if (head == tail) return;
                wrId = headWrId();
                removeHead();
            }
            cq.push(wrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, false, qpn, why);
        }
    }
}
