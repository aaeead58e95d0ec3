package dev.jccl.verbs.shm;

import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.BasicCompletionQueue;
import dev.jccl.verbs.base.OutstandingSends;

import java.lang.foreign.MemorySegment;

/**
 * The requester side of one queue pair. Work requests execute inline in {@code postSend}: the poster
 * copies straight into (or, for READ, out of) the peer's mapping and the request completes as soon
 * as the copy is done. A request that cannot run yet (the peer has no receive posted, or has not
 * reached RTR) waits in a FIFO of {@code depth} entries, retried whenever the queue pair makes
 * progress; later requests queue behind it to keep RC order. The FIFO being full is the only
 * back-pressure.
 *
 * <p>Guarded by this object's monitor (the "send lock"); the hot path allocates nothing. A waiting request
 * is kept as a copy in a preallocated slot, since the poster may reuse its request object.
 */
final class ShmSendQueue {
    private final ShmQueuePair qp;
    private final BasicCompletionQueue cq;
    private final LocalSges sges;
    private final int qpn;
    private final int depth;
    private final SendWr[] pending;
    private final long[] firstTriedNs; // 0 = not tried yet
    private int head;
    private int count;
    private boolean closed;
    private Delivery delivery; // set once connected

    ShmSendQueue(ShmQueuePair qp, BasicCompletionQueue cq, LocalSges sges, int depth) {
        this.qp = qp;
        this.cq = cq;
        this.sges = sges;
        this.qpn = qp.qpn();
        this.depth = depth;
        this.pending = new SendWr[depth];
        for (int i = 0; i < depth; i++) pending[i] = SendWr.send(0, Sge.EMPTY);
        this.firstTriedNs = new long[depth];
    }

    synchronized void connect(Delivery d) {
        this.delivery = d;
    }

    /**
     * Executes {@code wr} or queues it. Returns false only when {@code depth} requests already wait;
     * throws {@link VerbsException}, changing nothing, when its local sge is not valid.
     */
    synchronized boolean post(SendWr wr) {
        if (closed || qp.inError()) {
            qp.flushNow(wr);
            return true;
        }
        long offset = sges.resolve(wr.localAddress(), wr.length(), wr.lkey(), wr.opcode() == Opcode.RDMA_READ);
        if (count > 0) {
            progressLocked();
            if (qp.inError()) { // a waiting request just failed; this one is flushed behind it
                qp.flushNow(wr);
                return true;
            }
            if (count > 0) {
                if (count == depth) return false;
                enqueue(wr, 0);
                return true;
            }
            // The waiting requests just ran and resolved their own sges: resolve this one again, so
            // that localMemory() below is this request's region, not the last one's.
            offset = sges.resolve(wr.localAddress(), wr.length(), wr.lkey(), wr.opcode() == Opcode.RDMA_READ);
        }
        long now = System.nanoTime();
        int r = delivery.execute(wr, localMemory(wr), offset, now);
        if (r == Delivery.WAIT) {
            enqueue(wr, now);
        } else if (r == Delivery.FAILED) {
            failed(wr);
        }
        return true;
    }

    /** Retries waiting requests in order; returns how many finished. */
    synchronized int progress() {
        return count == 0 || closed ? 0 : progressLocked();
    }

    private int progressLocked() {
        int done = 0;
        while (count > 0) {
            SendWr wr = pending[head];
            if (firstTriedNs[head] == 0) firstTriedNs[head] = System.nanoTime();
            long offset;
            try {
                offset = sges.resolve(wr.localAddress(), wr.length(), wr.lkey(), wr.opcode() == Opcode.RDMA_READ);
            } catch (VerbsException e) { // deregistered while it waited
                dequeue();
                cq.push(wr.wrId(), WcStatus.LOC_PROT_ERR, OutstandingSends.toWc(wr.opcode()), 0, 0, false, qpn, e.getMessage());
                qp.toError("qp " + qpn + ": " + e.getMessage(), false);
                return done + 1;
            }
            int r = delivery.execute(wr, localMemory(wr), offset, firstTriedNs[head]);
            if (r == Delivery.WAIT) break;
            dequeue();
            done++;
            if (r == Delivery.FAILED) {
                failed(wr);
                break;
            }
        }
        return done;
    }

    /** Completes the failed request with its error, then moves the queue pair to ERR (flushing the rest). */
    private void failed(SendWr wr) {
        cq.push(wr.wrId(), delivery.failStatus, OutstandingSends.toWc(wr.opcode()), 0, 0, false, qpn, delivery.failDetail);
        qp.toError(delivery.failDetail, false);
    }

    /** Completes every waiting request with WR_FLUSH_ERR. */
    synchronized void flush(String why) {
        while (count > 0) {
            SendWr wr = pending[head];
            dequeue();
            cq.push(wr.wrId(), WcStatus.WR_FLUSH_ERR, OutstandingSends.toWc(wr.opcode()), 0, 0, false, qpn, why);
        }
    }

    /** After this the peer's mappings may be released. */
    synchronized void close() {
        closed = true;
    }

    /** The segment {@link LocalSges#resolve} just checked {@code wr}'s sge against. */
    private MemorySegment localMemory(SendWr wr) {
        return wr.length() == 0 ? MemorySegment.NULL : sges.segment();
    }

    /** Keeps a copy: the poster owns {@code wr} and may reuse it once {@code postSend} returns. */
    private void enqueue(SendWr wr, long triedNs) {
        int tail = (head + count) % depth;
        pending[tail].copyFrom(wr);
        firstTriedNs[tail] = triedNs;
        count++;
    }

    private void dequeue() {
        head = (head + 1) % depth;
        count--;
    }
}
