package dev.jccl.verbs.base;

import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Posted receives of one queue pair, consumed in order by incoming SENDs and WRITE_WITH_IMMs.
 *
 * <p>The application posts, a provider thread takes; both under this object's monitor (short
 * critical sections). Depth is enforced here: a full queue refuses the post.
 */
public final class ReceiveQueue {
    /** A posted receive with its memory already resolved and checked. */
    public record Posted(long wrId, MemorySegment buffer) {}

    private final int depth;
    private final ArrayDeque<Posted> posted = new ArrayDeque<>();
    private long totalPosted; // guarded by this

    public ReceiveQueue(int depth) {
        this.depth = depth;
    }

    public synchronized boolean offer(long wrId, MemorySegment buffer) {
        if (posted.size() >= depth) return false;
        posted.addLast(new Posted(wrId, buffer));
        totalPosted++;
        return true;
    }

    /** The oldest posted receive, or null when none is posted. */
    public synchronized Posted poll() {
        return posted.pollFirst();
    }

    public synchronized int size() {
        return posted.size();
    }

    /** Receives ever posted; shared-memory peers use it as a credit count. */
    public synchronized long totalPosted() {
        return totalPosted;
    }

    /** Completes every posted receive with WR_FLUSH_ERR. */
    public void flush(BasicCompletionQueue cq, int qpn, String why) {
        while (true) {
            Posted p = poll();
            if (p == null) return;
            cq.push(p.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, false, qpn, why);
        }
    }
}
