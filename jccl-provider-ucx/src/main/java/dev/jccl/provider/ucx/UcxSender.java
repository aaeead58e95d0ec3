package dev.jccl.provider.ucx;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.LocalRegion;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.jccl.provider.ucx.UcpLayouts.UCS_OK;

/**
 * The send queue of one queue pair: work requests in posting order, issued to UCX one after another.
 * All methods run under the worker lock.
 *
 * <p><b>Why data precedes the immediate.</b> UCX orders neither a put against a later active
 * message nor puts against each other. A large WRITE_WITH_IMM is therefore a put, then
 * {@code ucp_ep_flush_nbx}, and only when the flush has completed (every put on the endpoint is
 * complete at the target) the immediate as an active message. A small one (at most
 * {@link #INLINE_IMM_BYTES}, when no put is unflushed) is one active message carrying data and
 * immediate together: the target checks the key, copies the data into the region and only then
 * raises the immediate, so the order holds by construction and the flush's round trip is saved
 * (credits and small chunks are all this kind). The same barrier stands before a SEND or READ that
 * follows puts, which gives RC's ordering: what was written before is visible. Requests queue
 * behind a barrier, so they still leave in posting order.
 *
 * <p><b>When a request completes.</b> A WRITE completes when a flush issued after it completes (the
 * data is at the target), a READ when its get completes, a SEND or WRITE_WITH_IMM when the receiver
 * acknowledges it (so RNR and length errors reach the sender, as on RC). Completions are reported in
 * posting order; one that finishes early waits in {@code done} for those before it.
 */
final class UcxSender {
    /** The largest WRITE_WITH_IMM sent as one active message; below UCX's eager limits on shm and tcp. */
    static final long INLINE_IMM_BYTES = 4096;

    /**
     * A request waiting to be issued: a copy of the fields of the caller's {@link SendWr}, which the
     * caller may refill as soon as postSend returns, with its sequence number and resolved memory.
     */
    private record Pending(long seq, Opcode opcode, long remoteAddress, int rkey, int imm, int lkey, MemorySegment local) {}

    private final UcxQueuePair qp;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final Map<Integer, RemoteKey> keys = new HashMap<>();
    private final Map<Integer, Boolean> requested = new HashMap<>();
    private final BitSet doneAhead = new BitSet();
    private List<Long> unflushed = new ArrayList<>(); // sequence numbers of puts no flush has covered yet
    private boolean blocked;
    private long nextToComplete;

    UcxSender(UcxQueuePair qp) {
        this.qp = qp;
    }

    /** Queues {@code wr} (sequence {@code seq}, memory {@code local}); keeps no reference to {@code wr}. */
    void post(long seq, SendWr wr, MemorySegment local) {
        pending.addLast(new Pending(seq, wr.opcode(), wr.remoteAddress(), wr.rkey(), wr.imm(), wr.lkey(), local));
        pump();
    }

    /** Issues what it can, in order, until a request must wait for a key or a barrier. */
    void pump() {
        while (!blocked && !pending.isEmpty() && qp.isUsable()) {
            Pending p = pending.peekFirst();
            Opcode op = p.opcode();
            if (op != Opcode.SEND && !resolveKey(p)) return;
            boolean inline = op == Opcode.RDMA_WRITE_WITH_IMM && p.local().byteSize() <= INLINE_IMM_BYTES;
            if ((op == Opcode.SEND || op == Opcode.RDMA_READ || inline) && !unflushed.isEmpty()) {
                barrier(null);
                return;
            }
            pending.pollFirst();
            switch (op) {
                case RDMA_WRITE -> {
                    put(p);
                    unflushed.add(p.seq());
                }
                case RDMA_WRITE_WITH_IMM -> {
                    if (inline) {
                        qp.sendMessage(AmDescriptor.WRITE_IMM, p.seq(), p.imm(), p.remoteAddress(),
                                p.rkey(), p.local().address(), p.local().byteSize());
                        continue;
                    }
                    put(p);
                    barrier(() -> qp.sendMessage(AmDescriptor.WRITE_IMM, p.seq(), p.imm(), 0, 0, 0, 0,
                            p.local().byteSize()));
                }
                case RDMA_READ -> {
                    if (p.local().byteSize() == 0) {
                        completed(p.seq(), UCS_OK, "get"); // nothing to fetch; the key was checked
                        continue;
                    }
                    qp.context().worker().get(qp.ep(), p.local().address(), p.local().byteSize(),
                            p.remoteAddress(), keys.get(p.rkey()).handle(), localMemh(p),
                            qp.context().completion((st, len) -> completed(p.seq(), st, "get")));
                }
                case SEND -> qp.sendMessage(AmDescriptor.SEND, p.seq(), 0, 0, 0, p.local().address(),
                        p.local().byteSize());
            }
        }
        if (!blocked && !unflushed.isEmpty()) barrier(null);
    }

    /** True when the request's rkey is known and allows it; false when it waits or has failed. */
    private boolean resolveKey(Pending p) {
        int rkey = p.rkey();
        RemoteKey key = keys.get(rkey);
        if (key == null) {
            if (requested.putIfAbsent(rkey, Boolean.TRUE) == null) qp.requestKey(rkey);
            blocked = true;
            return false;
        }
        Access needed = p.opcode() == Opcode.RDMA_READ ? Access.REMOTE_READ : Access.REMOTE_WRITE;
        String refusal = key.refusal(p.remoteAddress(), p.local().byteSize(), needed);
        if (refusal == null) return true;
        qp.fail(p.seq(), WcStatus.REM_ACCESS_ERR, refusal + " (refused before posting)", true);
        return false;
    }

    private void put(Pending p) {
        if (p.local().byteSize() == 0) return;
        qp.context().worker().put(qp.ep(), p.local().address(), p.local().byteSize(), p.remoteAddress(),
                keys.get(p.rkey()).handle(), localMemh(p), qp.context().completion((st, len) -> {
                    if (st != UCS_OK) failed(p.seq(), st, "put");
                }));
    }

    /** The ucp_mem_map handle of the request's local region (its lkey was checked at posting). */
    private MemorySegment localMemh(Pending p) {
        LocalRegion r = qp.pd().regions().byLkey(p.lkey());
        UcxProtectionDomain.Mapping m = r == null ? null : qp.pd().mapping(r);
        return m == null ? null : m.memh();
    }

    /** Flushes the endpoint; the writes before it complete, then {@code then} runs and the queue moves on. */
    private void barrier(Runnable then) {
        List<Long> covered = unflushed;
        unflushed = new ArrayList<>();
        boolean blocking = then != null || !pending.isEmpty();
        if (blocking) blocked = true;
        qp.context().worker().flush(qp.ep(), qp.context().completion((st, len) -> {
            if (blocking) blocked = false;
            if (st != UCS_OK) {
                failed(covered.isEmpty() ? -1 : covered.getFirst(), st, "flush");
                return;
            }
            for (long seq : covered) completed(seq, UCS_OK, "put");
            if (then != null && qp.isUsable()) then.run();
            pump();
        }));
    }

    /** The peer's answer to a key request: {@code key} null when the peer has no such region. */
    void keyArrived(int rkey, RemoteKey key) {
        requested.remove(rkey);
        if (key != null) keys.put(rkey, key);
        Pending head = pending.peekFirst();
        blocked = false;
        if (key == null && head != null && head.rkey() == rkey) {
            qp.fail(head.seq(), WcStatus.REM_ACCESS_ERR,
                    String.format("rkey 0x%08x is not registered at the peer (refused before posting)", rkey), true);
            return;
        }
        pump();
    }

    /** The peer deregistered {@code rkey}: later requests naming it are refused here. */
    void forgetKey(int rkey) {
        RemoteKey k = keys.remove(rkey);
        if (k != null && k.handle() != null) UcpMemory.destroyRkey(k.handle());
    }

    void completed(long seq, int status, String what) {
        if (status != UCS_OK) {
            failed(seq, status, what);
            return;
        }
        if (seq < nextToComplete) return; // already reported (an answer for a request a flush completed)
        doneAhead.set((int) (seq - nextToComplete));
        int run = doneAhead.nextClearBit(0);
        if (run == 0) return;
        nextToComplete += run;
        BitSet rest = doneAhead.get(run, Math.max(run, doneAhead.length()));
        doneAhead.clear();
        doneAhead.or(rest);
        qp.outstanding().ackThrough(nextToComplete - 1, qp.sendCq(), qp.qpn());
    }

    private void failed(long seq, int status, String what) {
        qp.fail(seq, WcStatus.RETRY_EXC, "UCX " + what + " failed: " + Ucp.statusText(status), true);
    }

    /** Drops every request not yet issued (their completions come from the flush of the queue). */
    void clear() {
        pending.clear();
        for (RemoteKey k : keys.values()) if (k.handle() != null) UcpMemory.destroyRkey(k.handle());
        keys.clear();
    }
}
