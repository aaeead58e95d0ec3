package dev.jccl.provider.ucx;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcStatus;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
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
 * posting order; one that finishes early waits in {@code doneAhead} for those before it.
 *
 * <p><b>One flush per window of writes.</b> A run of WRITEs is not flushed per request: the flush
 * is owed until the context's next progress pass (the poster's own poll, or the agent), or issued
 * once {@link #FLUSH_WINDOW} writes wait for it, so a window of writes costs one flush and one
 * completion event. Posting allocates nothing: requests wait in rings sized by the send queue,
 * and every UCX request is a pooled {@link UcxOp}.
 */
final class UcxSender {
    /** The largest WRITE_WITH_IMM sent as one active message; below UCX's eager limits on shm and tcp. */
    static final long INLINE_IMM_BYTES = 4096;
    /** Writes after which a flush is issued at once rather than at the next progress pass. */
    static final int FLUSH_WINDOW = 32;

    private final UcxQueuePair qp;
    private final int depth;
    // Requests waiting to be issued, a ring of copies of the caller's SendWr fields (it may refill
    // it as soon as postSend returns): at most the send queue's depth of them.
    private final long[] seqs;
    private final Opcode[] opcodes;
    private final long[] remotes;
    private final int[] rkeys;
    private final int[] imms;
    private final long[] locals;
    private final long[] lengths;
    private final MemorySegment[] memhs;
    private int head;
    private int count;
    private final Map<Integer, RemoteKey> keys = new HashMap<>();
    private final Map<Integer, Boolean> requested = new HashMap<>();
    private int lastRkey; // the key the last request used, so the steady state boxes no Integer
    private RemoteKey lastKey;
    private final boolean[] doneAhead;
    private long unflushedFrom; // the writes no flush covers yet: [unflushedFrom, unflushedTo]
    private long unflushedTo = -1;
    private boolean flushOwed;
    private boolean blocked;
    private long nextToComplete;

    UcxSender(UcxQueuePair qp, int depth) {
        this.qp = qp;
        this.depth = depth;
        seqs = new long[depth];
        opcodes = new Opcode[depth];
        remotes = new long[depth];
        rkeys = new int[depth];
        imms = new int[depth];
        locals = new long[depth];
        lengths = new long[depth];
        memhs = new MemorySegment[depth];
        doneAhead = new boolean[depth];
    }

    /** Queues {@code wr} (sequence {@code seq}, memory at {@code local}); keeps no reference to {@code wr}. */
    void post(long seq, SendWr wr, long local, MemorySegment memh) {
        int i = (head + count) % depth;
        seqs[i] = seq;
        opcodes[i] = wr.opcode();
        remotes[i] = wr.remoteAddress();
        rkeys[i] = wr.rkey();
        imms[i] = wr.imm();
        locals[i] = local;
        lengths[i] = wr.length();
        memhs[i] = memh;
        count++;
        pump();
    }

    private boolean hasUnflushed() {
        return unflushedTo >= unflushedFrom;
    }

    /** Issues what it can, in order, until a request must wait for a key or a barrier. */
    void pump() {
        while (!blocked && count > 0 && qp.isUsable()) {
            int i = head;
            Opcode op = opcodes[i];
            RemoteKey key = op == Opcode.SEND ? null : resolveKey(i);
            if (op != Opcode.SEND && key == null) return;
            long seq = seqs[i];
            long bytes = lengths[i];
            boolean inline = op == Opcode.RDMA_WRITE_WITH_IMM && bytes <= INLINE_IMM_BYTES;
            if ((op == Opcode.SEND || op == Opcode.RDMA_READ || inline) && hasUnflushed()) {
                barrier(false, 0, 0, 0);
                return;
            }
            head = (head + 1) % depth;
            count--;
            MemorySegment memh = memhs[i];
            memhs[i] = null;
            switch (op) {
                case RDMA_WRITE -> {
                    put(seq, i, key, memh);
                    if (!hasUnflushed()) unflushedFrom = seq;
                    unflushedTo = seq;
                }
                case RDMA_WRITE_WITH_IMM -> {
                    if (inline) {
                        qp.sendMessage(AmDescriptor.WRITE_IMM, seq, imms[i], remotes[i], rkeys[i], locals[i], bytes);
                        continue;
                    }
                    put(seq, i, key, memh);
                    barrier(true, seq, imms[i], bytes);
                }
                case RDMA_READ -> {
                    if (bytes == 0) {
                        completed(seq, UCS_OK, "get"); // nothing to fetch; the key was checked
                        continue;
                    }
                    qp.context().worker().get(qp.ep(), locals[i], bytes, remotes[i], key.handle(), memh,
                            qp.context().ops().take(UcxOp.GET, qp, seq));
                }
                case SEND -> qp.sendMessage(AmDescriptor.SEND, seq, 0, 0, 0, locals[i], bytes);
            }
        }
        if (blocked || !hasUnflushed()) return;
        if (unflushedTo - unflushedFrom + 1 >= FLUSH_WINDOW || count > 0) {
            barrier(false, 0, 0, 0);
        } else if (!flushOwed) {
            flushOwed = true;
            qp.context().flushLater(this);
        }
    }

    /** The context's progress pass: issues the flush this sender held back; false when none was owed. */
    boolean flushOwed() {
        if (!flushOwed) return false;
        flushOwed = false;
        if (blocked || !hasUnflushed() || !qp.isUsable()) return false;
        barrier(false, 0, 0, 0);
        return true;
    }

    /** The rkey of request {@code i} when it is known and allows it; null when it waits or has failed. */
    private RemoteKey resolveKey(int i) {
        int rkey = rkeys[i];
        RemoteKey key = lastKey != null && lastRkey == rkey ? lastKey : keys.get(rkey);
        if (key == null) {
            if (requested.putIfAbsent(rkey, Boolean.TRUE) == null) qp.requestKey(rkey);
            blocked = true;
            return null;
        }
        lastRkey = rkey;
        lastKey = key;
        Access needed = opcodes[i] == Opcode.RDMA_READ ? Access.REMOTE_READ : Access.REMOTE_WRITE;
        String refusal = key.refusal(remotes[i], lengths[i], needed);
        if (refusal == null) return key;
        qp.fail(seqs[i], WcStatus.REM_ACCESS_ERR, refusal + " (refused before posting)", true);
        return null;
    }

    private void put(long seq, int i, RemoteKey key, MemorySegment memh) {
        if (lengths[i] == 0) return;
        qp.context().worker().put(qp.ep(), locals[i], lengths[i], remotes[i], key.handle(), memh,
                qp.context().ops().take(UcxOp.PUT, qp, seq));
    }

    /**
     * Flushes the endpoint: the writes before it complete, then (for a large WRITE_WITH_IMM, request
     * {@code seq}) the immediate goes, and the queue moves on.
     */
    private void barrier(boolean thenImm, long seq, int imm, long written) {
        UcxOp op = qp.context().ops().take(UcxOp.FLUSH, qp, seq);
        op.from = unflushedFrom;
        op.to = unflushedTo;
        op.thenImm = thenImm;
        op.imm = imm;
        op.written = written;
        op.blocking = thenImm || count > 0;
        unflushedTo = -1;
        unflushedFrom = 0;
        if (op.blocking) blocked = true;
        qp.context().worker().flush(qp.ep(), op);
    }

    /** A flush completed: its writes complete, the immediate it held back leaves, the queue moves on. */
    void flushed(int status, long from, long to, boolean wasBlocking, boolean thenImm, long seq, int imm, long written) {
        if (wasBlocking) blocked = false;
        if (status != UCS_OK) {
            failed(to >= from ? from : -1, status, "flush");
            return;
        }
        for (long s = from; s <= to; s++) completed(s, UCS_OK, "put");
        if (thenImm && qp.isUsable()) qp.sendMessage(AmDescriptor.WRITE_IMM, seq, imm, 0, 0, 0, 0, written);
        pump();
    }

    /** The peer's answer to a key request: {@code key} null when the peer has no such region. */
    void keyArrived(int rkey, RemoteKey key) {
        requested.remove(rkey);
        if (key != null) keys.put(rkey, key);
        blocked = false;
        if (key == null && count > 0 && rkeys[head] == rkey) {
            qp.fail(seqs[head], WcStatus.REM_ACCESS_ERR,
                    String.format("rkey 0x%08x is not registered at the peer (refused before posting)", rkey), true);
            return;
        }
        pump();
    }

    /** The peer deregistered {@code rkey}: later requests naming it are refused here. */
    void forgetKey(int rkey) {
        RemoteKey k = keys.remove(rkey);
        if (lastKey != null && lastRkey == rkey) lastKey = null;
        if (k != null && k.handle() != null) UcpMemory.destroyRkey(k.handle());
    }

    void completed(long seq, int status, String what) {
        if (status != UCS_OK) {
            failed(seq, status, what);
            return;
        }
        if (seq < nextToComplete || seq - nextToComplete >= depth) return; // already reported, or not ours
        doneAhead[(int) (seq % depth)] = true;
        long before = nextToComplete;
        while (doneAhead[(int) (nextToComplete % depth)]) {
            doneAhead[(int) (nextToComplete % depth)] = false;
            nextToComplete++;
        }
        if (nextToComplete > before) qp.outstanding().ackThrough(nextToComplete - 1, qp.sendCq(), qp.qpn());
    }

    void failed(long seq, int status, String what) {
        qp.fail(seq, WcStatus.RETRY_EXC, "UCX " + what + " failed: " + Ucp.statusText(status), true);
    }

    /** Drops every request not yet issued (their completions come from the flush of the queue). */
    void clear() {
        count = 0;
        java.util.Arrays.fill(memhs, null);
        lastKey = null;
        for (RemoteKey k : keys.values()) if (k.handle() != null) UcpMemory.destroyRkey(k.handle());
        keys.clear();
    }
}
