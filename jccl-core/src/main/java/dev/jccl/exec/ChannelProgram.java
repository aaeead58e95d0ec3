package dev.jccl.exec;

import dev.jccl.algo.BufferId;
import dev.jccl.algo.ChunkHazards;
import dev.jccl.algo.Placement;
import dev.jccl.algo.RankSchedule;
import dev.jccl.algo.Recv;
import dev.jccl.algo.Span;
import dev.jccl.algo.Step;

import java.util.ArrayList;
import java.util.List;

/**
 * One channel's schedule compiled for execution: operations in program order (steps in order;
 * send, copy, receive within a step) as flat arrays, and for every chunk of every operation the
 * waits {@link ChunkHazards} requires, precomputed so that deciding whether a chunk may run reads
 * arrays and asks no list. Immutable; cached by the runtime per (collective, count, type, root,
 * placement).
 *
 * <p>This is one part of why a chunk allocates nothing in the steady state; the others: the
 * {@link ChannelRun} over this program is made once per cached plan and reset per operation
 * ({@link OpRun}); a send refills its link's one {@link dev.jccl.verbs.SendWr} (providers copy what
 * they keep); receives reduce through kernels that take byte offsets rather than slices; and the
 * providers post, complete and move frames without allocating (shm writes receive completions
 * straight into the poller's array). {@code AllocationFreeTest} measures it per thread.
 */
public final class ChannelProgram {
    static final byte SEND = 0;
    static final byte COPY = 1;
    static final byte RECV = 2;

    final int channel;
    final long chunkElems;
    final long scratchElems;
    final int ops;
    final byte[] kind;
    final int[] peer;
    final long[] count;
    final int[] chunks;
    final boolean[] reduce;
    /** A reducing receive whose incoming data is the first operand of the reduction. */
    final boolean[] incomingFirst;
    /** Source of a send or copy, operand of a reducing receive; null otherwise. */
    final BufferId[] srcBuf;
    final long[] srcOff;
    /** Target of a copy or receive; null for a send. */
    final BufferId[] dstBuf;
    final long[] dstOff;
    /** The previous send to (receive from) the same peer, which must be fully posted (applied) first; -1 if none. */
    final int[] prevSameLink;
    /** For op k, chunk c: waits waitStart[k][c] until waitStart[k][c+1] of waitOp[k] / waitNeed[k]. */
    final int[][] waitStart;
    final int[][] waitOp;
    final int[][] waitNeed;
    /**
     * For a send, the operations that wait for it (others: empty). A send none of them waits for may
     * go as a direct read, whose {@code done} comes only when the peer has read it ({@link DirectReads}
     * has why that must not gate anything but the end of the operation); an in-place copy that
     * {@link ChannelRun#reset} finds already done waits for nothing.
     */
    final int[][] waiters;
    /**
     * For a receive, the send (to any peer) of exactly the span it writes that waits for it, which a
     * fused receive may store straight into that peer's slot while applying the chunk
     * (recvReduceCopySend); -1 if none.
     */
    final int[] fuseInto;
    private final int[] peers;

    private ChannelProgram(int channel, long chunkElems, long scratchElems, List<Op> list, ChunkHazards hazards) {
        this.channel = channel;
        this.chunkElems = chunkElems;
        this.scratchElems = scratchElems;
        this.ops = list.size();
        kind = new byte[ops];
        peer = new int[ops];
        count = new long[ops];
        chunks = new int[ops];
        reduce = new boolean[ops];
        incomingFirst = new boolean[ops];
        srcBuf = new BufferId[ops];
        srcOff = new long[ops];
        dstBuf = new BufferId[ops];
        dstOff = new long[ops];
        prevSameLink = new int[ops];
        waitStart = new int[ops][];
        waitOp = new int[ops][];
        waitNeed = new int[ops][];
        for (int k = 0; k < ops; k++) {
            Op o = list.get(k);
            kind[k] = o.kind;
            peer[k] = o.peer;
            count[k] = o.count;
            chunks[k] = ChunkHazards.chunkCount(o.count, chunkElems);
            reduce[k] = o.reduce;
            incomingFirst[k] = o.incomingFirst;
            if (o.src != null) { srcBuf[k] = o.src.buffer(); srcOff[k] = o.src.elemOffset(); }
            if (o.dst != null) { dstBuf[k] = o.dst.buffer(); dstOff[k] = o.dst.elemOffset(); }
            prevSameLink[k] = -1;
            for (int j = k - 1; j >= 0 && o.kind != COPY; j--) {
                if (kind[j] == o.kind && peer[j] == o.peer) { prevSameLink[k] = j; break; }
            }
            compileWaits(k, hazards);
        }
        peers = java.util.Arrays.stream(peer).filter(x -> x >= 0).distinct().sorted().toArray();
        fuseInto = new int[ops];
        for (int k = 0; k < ops; k++) fuseInto[k] = kind[k] == RECV ? forwardOf(k) : -1;
        waiters = new int[ops][];
        for (int k = 0; k < ops; k++) {
            final int send = k;
            waiters[k] = kind[k] != SEND ? new int[0]
                    : java.util.stream.IntStream.range(0, ops).filter(j -> java.util.Arrays.stream(waitOp[j]).anyMatch(w -> w == send)).toArray();
        }
    }

    /** The first later send of exactly receive {@code k}'s target span that waits for it; -1 if none. */
    private int forwardOf(int k) {
        for (int j = k + 1; j < ops; j++) {
            if (kind[j] != SEND || srcBuf[j] != dstBuf[k] || srcOff[j] != dstOff[k] || count[j] != count[k]) continue;
            for (int w : waitOp[j]) if (w == k) return j;
        }
        return -1;
    }

    private void compileWaits(int k, ChunkHazards hazards) {
        int n = chunks[k];
        int[] start = new int[n + 1];
        List<ChunkHazards.Wait> all = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            start[c] = all.size();
            if (hazards != null) all.addAll(hazards.waits(k, c));
        }
        start[n] = all.size();
        waitStart[k] = start;
        waitOp[k] = all.stream().mapToInt(ChunkHazards.Wait::op).toArray();
        waitNeed[k] = all.stream().mapToInt(ChunkHazards.Wait::chunks).toArray();
    }

    private record Op(byte kind, int peer, long count, boolean reduce, boolean incomingFirst, Span src, Span dst) {}

    /** Compiles {@code schedule} for chunks of {@code chunkElems} elements under {@code placement}. */
    public static ChannelProgram compile(int channel, RankSchedule schedule, long chunkElems, Placement placement) {
        ChunkHazards hazards = ChunkHazards.of(schedule, chunkElems, placement);
        List<Op> list = new ArrayList<>();
        for (Step s : schedule.steps()) {
            if (s.send() != null) list.add(new Op(SEND, s.send().peer(), s.send().from().count(), false, false, s.send().from(), null));
            if (s.copy() != null) list.add(new Op(COPY, -1, s.copy().from().count(), false, false, s.copy().from(), s.copy().into()));
            if (s.recv() != null) {
                Recv r = s.recv();
                list.add(new Op(RECV, r.peer(), r.count(), r.action() == Recv.Action.REDUCE, r.incomingFirst(), r.operand(), r.into()));
            }
        }
        List<ChunkHazards.Op> expected = hazards.ops();
        for (int k = 0; k < list.size(); k++) {
            if (expected.get(k).count() != list.get(k).count || expected.get(k).peer() != list.get(k).peer) {
                throw new IllegalStateException("operation " + k + " disagrees with ChunkHazards: " + expected.get(k));
            }
        }
        return new ChannelProgram(channel, chunkElems, schedule.scratchElems(), list, hazards);
    }

    /** A point-to-point send of INPUT[0, count) to {@code peer}, on channel 0. */
    public static ChannelProgram send(int peer, long count, long chunkElems) {
        return new ChannelProgram(0, chunkElems, 0, count == 0 ? List.of()
                : List.of(new Op(SEND, peer, count, false, false, Span.of(BufferId.INPUT, 0, count), null)), null);
    }

    /** A point-to-point receive of OUTPUT[0, count) from {@code peer}, on channel 0. */
    public static ChannelProgram recv(int peer, long count, long chunkElems) {
        return new ChannelProgram(0, chunkElems, 0, count == 0 ? List.of()
                : List.of(new Op(RECV, peer, count, false, false, null, Span.of(BufferId.OUTPUT, 0, count))), null);
    }

    public int channel() {
        return channel;
    }

    public long scratchElems() {
        return scratchElems;
    }

    /** Ranks this channel sends to or receives from; each needs a link on this channel. Do not modify. */
    public int[] peers() {
        return peers;
    }

    /** Whether op {@code k} sends from {@code buffer} (so that buffer must be registered for the link's domain). */
    boolean sendsFrom(int k, BufferId buffer) {
        return kind[k] == SEND && srcBuf[k] == buffer;
    }
}
