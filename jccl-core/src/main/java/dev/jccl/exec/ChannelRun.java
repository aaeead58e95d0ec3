package dev.jccl.exec;

import dev.jccl.trace.DataPathCounters;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.algo.BufferId;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.PeerMemory;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static dev.jccl.exec.ChannelProgram.COPY;
import static dev.jccl.exec.ChannelProgram.SEND;

/**
 * One channel of one running operation: which chunk of each operation is next, and the rules of
 * {@code dev.jccl.algo}'s package documentation that decide whether it may run now. A send's chunks
 * are posted in order and count as done when they complete locally; copies and receives count as
 * done when applied. Operations that do not wait on each other advance in any order, so chunks of
 * later steps pipeline behind chunks of earlier ones. Runs on the progress thread only.
 *
 * <p>Made once per compiled program and {@link #reset} for every operation that runs it (the owning
 * {@link OpRun} makes sure one operation at a time), so running a chunk allocates nothing: sends
 * post through the link's one reusable work request, and kernels and copies take offsets into the
 * bound segments rather than slices of them.
 */
final class ChannelRun implements Link.SendListener {
    private final ChannelProgram p;
    private final Link[] linkOf;
    private final Bindings bind;
    private final DataType type;
    private final Kernels kernels;
    private final int eb;
    private final int[] posted;
    private final int[] done;
    /** Per op: a send that may go as direct reads in this operation (see {@link ChannelProgram#waiters}). */
    private final boolean[] directOk;
    /** Per op: a send that may read from private memory, when {@link #readPrivate} ({@link DirectReads#privateEligible}). */
    private final boolean[] privateOk;
    private final ChunkTrace trace;
    private ReduceOp reduceWith;
    private boolean readPrivate;
    private int fingerprint;
    private int firstOpen;
    private long pinnedSlot; // offset of the peer's slot pinned for a fused receive's stores (fusable)
    /** A fused receive stores its result into the peer's slot in blocks this big, each while still in cache. */
    private static final long FUSED_BLOCK_BYTES = 32 << 10;

    ChannelRun(ChannelProgram p, Link[] linkOf, boolean[] privateOk, Bindings bind, DataType type, Kernels kernels, ChunkTrace trace) {
        this.p = p;
        this.trace = trace;
        this.linkOf = linkOf;
        this.bind = bind;
        this.type = type;
        this.kernels = kernels;
        this.eb = type.byteSize();
        this.posted = new int[p.ops];
        this.done = new int[p.ops];
        this.directOk = new boolean[p.ops];
        this.privateOk = privateOk;
        this.firstOpen = p.ops;
    }

    /** Starts over for an operation whose buffers are bound now; receives reduce with {@code reduceWith}; {@link PrivateReadChoice} says readPrivate. */
    void reset(ReduceOp reduceWith, int fingerprint, boolean readPrivate) {
        this.readPrivate = readPrivate;
        this.reduceWith = reduceWith;
        this.fingerprint = fingerprint;
        Arrays.fill(posted, 0);
        Arrays.fill(done, 0);
        firstOpen = 0;
        for (int k = 0; k < p.ops; k++) {
            // An in-place call can make a copy's source and target the same memory: nothing to move.
            if (p.kind[k] == COPY && address(p.srcBuf[k], p.srcOff[k]) == address(p.dstBuf[k], p.dstOff[k])) done[k] = p.chunks[k];
        }
        for (int k = 0; k < p.ops; k++) {
            boolean ok = p.kind[k] == SEND;
            for (int w : p.waiters[k]) ok &= done[w] == p.chunks[w]; // only a copy found done in place waits for nothing
            directOk[k] = ok;
        }
        skipFinished();
    }

    boolean finished() {
        return firstOpen == p.ops;
    }

    @Override
    public void sendCompleted(int op) {
        if (trace.enabled()) {
            long first = done[op] * p.chunkElems;
            trace.sendCompleted(op, done[op], p.peer[op], Math.min(p.chunkElems, p.count[op] - first) * eb);
        }
        done[op]++;
    }

    /** Runs every chunk that may run now; returns how many ran. */
    int advance() {
        int work = 0;
        boolean again = true;
        while (again && firstOpen < p.ops) {
            again = false;
            for (int k = firstOpen; k < p.ops; k++) {
                int w = switch (p.kind[k]) {
                    case SEND -> sends(k);
                    case COPY -> copies(k);
                    default -> receives(k);
                };
                if (w > 0) {
                    work += w;
                    again = true;
                }
            }
            skipFinished();
        }
        return work;
    }

    private int sends(int k) {
        int prev = p.prevSameLink[k];
        if (prev >= 0 && posted[prev] < p.chunks[prev]) return 0; // FIFO per link: earlier sends first
        Link link = linkOf[k];
        int n = 0;
        while (posted[k] < p.chunks[k] && link.canSend() && ready(k, posted[k])) {
            int c = posted[k];
            long first = c * p.chunkElems;
            long bytes = Math.min(p.chunkElems, p.count[k] - first) * eb;
            MemorySegment src = bind.segment(p.srcBuf[k], p.channel);
            MemoryRegion mr = bind.region(p.srcBuf[k], p.channel, link.pd(), link.pdIndex());
            trace.posted(k, c);
            int kind = DirectReads.kindFor(directOk[k], readPrivate && privateOk[k], src, mr, link);
            long at = src.address() + (p.srcOff[k] + first) * eb;
            if (kind >= 0) {
                link.postDirect(at, bytes, kind == DirectReads.REGION ? mr.rkey() : 0, kind, fingerprint, this, k);
                DataPathCounters.add(DataPathCounters.Counter.DIRECT_SENT_BYTES, bytes);
            } else {
                Trailers t = link.trailers();
                link.postData(at, bytes, mr.lkey(), fingerprint, t == null ? 0 : t.of(src, (p.srcOff[k] + first) * eb, bytes), this, k);
                DataPathCounters.add(DataPathCounters.Counter.SENT_BYTES, bytes);
                DataPathCounters.add(DataPathCounters.Counter.CHUNKS_SENT, 1);
            }
            posted[k]++;
            n++;
        }
        return n;
    }

    private int copies(int k) {
        int n = 0;
        while (done[k] < p.chunks[k] && ready(k, done[k])) {
            long first = done[k] * p.chunkElems;
            long bytes = Math.min(p.chunkElems, p.count[k] - first) * eb;
            MemorySegment.copy(bind.segment(p.srcBuf[k], p.channel), (p.srcOff[k] + first) * eb,
                    bind.segment(p.dstBuf[k], p.channel), (p.dstOff[k] + first) * eb, bytes);
            DataPathCounters.add(DataPathCounters.Counter.RUNTIME_COPY_BYTES, bytes);
            done[k]++;
            n++;
        }
        return n;
    }

    private int receives(int k) {
        int prev = p.prevSameLink[k];
        if (prev >= 0 && done[prev] < p.chunks[prev]) return 0; // FIFO per link: earlier receives first
        Link link = linkOf[k];
        int n = 0;
        while (done[k] < p.chunks[k] && link.hasArrival() && ready(k, done[k])) {
            long first = done[k] * p.chunkElems;
            long elems = Math.min(p.chunkElems, p.count[k] - first);
            long bytes = elems * eb;
            boolean direct = link.arrivalImm() == ImmCodec.direct(fingerprint, link.arrivalChunk()) && link.arrivalBytes() == DirectReads.DESCRIPTOR_BYTES;
            boolean placed = link.arrivalImm() == ImmCodec.placed(fingerprint, link.arrivalChunk()) && link.arrivalBytes() == 0;
            if (!direct && !placed && (link.arrivalImm() != ImmCodec.data(fingerprint, link.arrivalChunk()) || link.arrivalBytes() != bytes)) {
                throw ChannelDiagnostics.misfit(link, p.channel, fingerprint, bytes);
            }
            Trailers t = link.trailers();
            if (t != null && !direct) t.verify(link, p.channel, k, done[k], bytes);
            MemorySegment dst = bind.segment(p.dstBuf[k], p.channel);
            long dstOff = (p.dstOff[k] + first) * eb;
            long startNs = trace.now();
            int kind = direct ? DirectReads.arrivalKind(link, p.channel) : -1;
            // A direct read takes the chunk from the peer's buffer where the descriptor in the slot says:
            // in place from a region we map, or by one kernel copy from its private memory.
            boolean inPeer = kind == DirectReads.REGION;
            long incomingOff = inPeer ? DirectReads.pinArrival(link, p.channel, fingerprint, bytes) : link.arrivalOffset();
            PeerMemory peerMemory = inPeer ? link.direct().reads() : null;
            MemorySegment slots = inPeer ? peerMemory.memory() : link.slots();
            int forward = -1;
            Link next = null;
            try {
                forward = fusable(k, done[k], bytes);
                next = forward >= 0 ? linkOf[forward] : null;
                // A private chunk goes to the target if only copied, else to our slot (lines this core holds) to reduce from in cache.
                boolean straight = kind == DirectReads.PRIVATE && !p.reduce[k] && next == null;
                if (kind == DirectReads.PRIVATE) {
                    DirectReads.readPrivateArrival(link, p.channel, fingerprint, bytes, straight ? dst : slots, straight ? dstOff : incomingOff);
                }
                if (next != null) applyAndStore(k, first, elems, dst, dstOff, slots, incomingOff, next.direct().stores().memory(), pinnedSlot);
                else if (!straight) apply(k, first, elems, dst, dstOff, slots, incomingOff);
            } finally {
                if (inPeer) peerMemory.unpin();
                if (next != null) next.direct().stores().unpin();
            }
            if (direct) DataPathCounters.add(DataPathCounters.Counter.DIRECT_READ_BYTES, bytes);
            DataPathCounters.add(p.reduce[k] ? DataPathCounters.Counter.REDUCED_BYTES : DataPathCounters.Counter.RUNTIME_COPY_BYTES, bytes);
            trace.received(done[k], p.peer[k], bytes, p.reduce[k], startNs);
            if (next != null) { // the send of this span: its chunk is in the peer's slot already, and its waits are met with this one
                trace.posted(forward, posted[forward]);
                next.postPlaced(fingerprint, this, forward);
                DataPathCounters.add(DataPathCounters.Counter.SENT_BYTES, bytes);
                DataPathCounters.add(DataPathCounters.Counter.CHUNKS_SENT, 1);
                DataPathCounters.add(DataPathCounters.Counter.FUSED_BYTES, bytes);
                posted[forward]++;
            }
            link.consumed(fingerprint);
            // Return slots once half the FIFO is held, so a streaming peer never waits for them; at once
            // after a direct read, which the peer counts as sent only when this credit arrives.
            link.flushCredits(direct);
            done[k]++;
            n++;
        }
        return n;
    }

    /**
     * The send that chunk {@code c} of receive {@code k} may store straight into the peer's slot of
     * while it is applied (recvReduceCopySend: the result is written once more from cache instead of
     * being read back by a copy), with that slot pinned ({@link #pinnedSlot}); -1 when it may not:
     * no such send, JCCL_DIRECT off or a peer that cannot be mapped, the send would go as a direct
     * read anyway, or it could not be posted right after this chunk (order on its link, a credit,
     * its other waits). Holding a credit means the peer has finished with that slot.
     */
    private int fusable(int k, int c, long bytes) {
        int j = p.fuseInto[k];
        if (j < 0 || posted[j] != c || c >= p.chunks[j]) return -1;
        int prev = p.prevSameLink[j];
        Link next = linkOf[j];
        if ((prev >= 0 && posted[prev] < p.chunks[prev]) || !next.directReadable() || !next.canSend()) return -1;
        if (directOk[j] && DirectReads.kindFor(true, readPrivate && privateOk[j], bind.segment(p.srcBuf[j], p.channel),
                bind.region(p.srcBuf[j], p.channel, next.pd(), next.pdIndex()), next) >= 0) return -1;
        int[] start = p.waitStart[j];
        for (int i = start[c]; i < start[c + 1]; i++) {
            int op = p.waitOp[j][i];
            if (done[op] + (op == k ? 1 : 0) < p.waitNeed[j][i]) return -1;
        }
        pinnedSlot = next.pinNextSlot(bytes);
        return pinnedSlot < 0 ? -1 : j;
    }

    /** {@link #apply}, storing each block of the result into {@code slot} too while it is still in cache. */
    private void applyAndStore(int k, long first, long elems, MemorySegment dst, long dstOff, MemorySegment src, long srcOff,
                               MemorySegment slot, long slotOff) {
        long block = Math.max(1, FUSED_BLOCK_BYTES / eb);
        for (long i = 0; i < elems; i += block) {
            long m = Math.min(block, elems - i);
            apply(k, first + i, m, dst, dstOff + i * eb, src, srcOff + i * eb);
            MemorySegment.copy(dst, dstOff + i * eb, slot, slotOff + i * eb, m * eb);
        }
    }

    /** Reduces or copies one arrived chunk, whose data is at {@code incomingOff} of {@code slots}, into its target. */
    private void apply(int k, long first, long elems, MemorySegment dst, long dstOff, MemorySegment slots, long incomingOff) {
        // first: the chunk's first element within op k, so the local operand lines up
        if (p.reduce[k]) {
            MemorySegment operand = bind.segment(p.srcBuf[k], p.channel);
            long operandOff = (p.srcOff[k] + first) * eb;
            // The operand order the schedule chose (local first unless it says otherwise): ranks
            // that both compute one result agree on it, so their bits agree.
            if (p.incomingFirst[k]) kernels.reduce(type, reduceWith, dst, dstOff, slots, incomingOff, operand, operandOff, elems);
            else kernels.reduce(type, reduceWith, dst, dstOff, operand, operandOff, slots, incomingOff, elems);
        } else {
            MemorySegment.copy(slots, incomingOff, dst, dstOff, elems * eb);
        }
    }

    /** Whether every wait of chunk {@code c} of op {@code k} is met. */
    private boolean ready(int k, int c) {
        int[] start = p.waitStart[k];
        int[] ops = p.waitOp[k];
        int[] need = p.waitNeed[k];
        for (int i = start[c]; i < start[c + 1]; i++) {
            if (done[ops[i]] < need[i]) return false;
        }
        return true;
    }

    private void skipFinished() {
        while (firstOpen < p.ops && done[firstOpen] == p.chunks[firstOpen]) firstOpen++;
    }

    private long address(BufferId buffer, long elemOffset) {
        return bind.segment(buffer, p.channel).address() + elemOffset * eb;
    }

    /** The first unfinished operations and whom they wait for, for timeout messages. */
    String describeWaiting(java.util.Set<Integer> waitingOn) {
        return ChannelDiagnostics.describeWaiting(p, linkOf, posted, done, firstOpen, waitingOn);
    }
}
