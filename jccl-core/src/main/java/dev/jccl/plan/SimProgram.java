package dev.jccl.plan;

import java.util.ArrayList;
import java.util.List;

import dev.jccl.algo.ChunkHazards;
import dev.jccl.algo.HostTopology;
import dev.jccl.algo.RankSchedule;
import dev.jccl.algo.Recv;

/**
 * The simulator's state for one (channel, rank) program: its operations in program order as flat
 * arrays (from the real schedule), the chunk hazards the executor obeys, and progress counters.
 */
final class SimProgram {
    static final byte SEND = 0;
    static final byte COPY = 1;
    static final byte RECV = 2;

    final int rank;
    final int channel;
    final ChunkHazards hazards;
    final int ops;
    final byte[] kind;
    final int[] peerRank;
    final long[] count;
    final int[] chunks;
    final boolean[] reduces;
    /** The previous send to the same peer, fully posted before this one starts (FIFO per link); -1 if none. */
    final int[] prevSameLink;
    /** Index of the op's peer in {@link #peers}. */
    final int[] peerIdx;
    /** For a send: the receiver's index of this rank among its peers; for a receive: the sender's. Filled by {@link #link}. */
    final int[] remoteIdx;
    final List<Integer> peers = new ArrayList<>();
    /** Per peer index: this program's receives from (sends to) that peer in program order, and which is current. */
    final int[][] recvOps;
    final int[] recvPtr;
    final int[][] sendOps;
    final int[] sendPtr;
    /** Per operation: the later operations that may wait on it. */
    final int[][] dependents;
    final int[] inflight;
    /** Sends: chunks posted; receives and copies: chunks started. */
    final int[] started;
    final int[] done;
    final int[] arrived;
    private final int[] cachedChunk;
    private final List<List<ChunkHazards.Wait>> cachedWaits;
    int lo;

    SimProgram(RankSchedule s, int channel, ChunkHazards hazards) {
        this.rank = s.rank();
        this.channel = channel;
        this.hazards = hazards;
        List<ChunkHazards.Op> list = hazards.ops();
        ops = list.size();
        kind = new byte[ops];
        peerRank = new int[ops];
        count = new long[ops];
        chunks = new int[ops];
        reduces = new boolean[ops];
        prevSameLink = new int[ops];
        peerIdx = new int[ops];
        remoteIdx = new int[ops];
        started = new int[ops];
        done = new int[ops];
        arrived = new int[ops];
        cachedChunk = new int[ops];
        cachedWaits = new ArrayList<>(ops);
        List<Integer> lastSendTo = new ArrayList<>();
        List<List<Integer>> recvs = new ArrayList<>();
        List<List<Integer>> sends = new ArrayList<>();
        List<List<Integer>> deps = new ArrayList<>();
        for (int i = 0; i < ops; i++) {
            ChunkHazards.Op op = list.get(i);
            kind[i] = switch (op.kind()) { case SEND -> SEND; case COPY -> COPY; case RECV -> RECV; };
            peerRank[i] = op.peer();
            count[i] = op.count();
            chunks[i] = hazards.chunkCount(i);
            cachedChunk[i] = -1;
            cachedWaits.add(null);
            deps.add(new ArrayList<>());
            for (int x : hazards.dependsOn(i)) deps.get(x).add(i);
            prevSameLink[i] = -1;
            if (op.peer() < 0) continue;
            int p = peers.indexOf(op.peer());
            if (p < 0) {
                p = peers.size();
                peers.add(op.peer());
                lastSendTo.add(-1);
                recvs.add(new ArrayList<>());
                sends.add(new ArrayList<>());
            }
            peerIdx[i] = p;
            if (kind[i] == SEND) {
                prevSameLink[i] = lastSendTo.get(p);
                lastSendTo.set(p, i);
                sends.get(p).add(i);
            } else {
                Recv r = s.steps().get(op.step()).recv();
                reduces[i] = r.action() == Recv.Action.REDUCE;
                recvs.get(p).add(i);
            }
        }
        recvOps = recvs.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        recvPtr = new int[peers.size()];
        sendOps = sends.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        sendPtr = new int[peers.size()];
        dependents = deps.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        inflight = new int[peers.size()];
    }

    /**
     * Fills {@link #remoteIdx} once every simulated program exists: the peer is played by its
     * representative, which knows this rank by its relabelled number.
     */
    void link(SimProgram[] all, Symmetry sym, HostTopology t) {
        for (int i = 0; i < ops; i++) {
            if (peerRank[i] < 0) continue;
            SimProgram other = all[sym.representative(peerRank[i], t)];
            remoteIdx[i] = other.peers.indexOf(sym.seenFrom(rank, t.hostOf(peerRank[i]), t));
            if (remoteIdx[i] < 0) throw new IllegalStateException("rank " + rank + " op " + i + ": no matching peer under " + sym);
        }
    }

    long chunkBytes(int op, int chunk) {
        long c = hazards.chunkElems();
        return Math.min(c, count[op] - chunk * c);
    }

    /** Whether chunk {@code chunk} of {@code op} has every earlier operation it depends on far enough. */
    boolean waitsMet(int op, int chunk) {
        if (cachedChunk[op] != chunk) {
            cachedWaits.set(op, hazards.waits(op, chunk));
            cachedChunk[op] = chunk;
        }
        for (ChunkHazards.Wait w : cachedWaits.get(op)) if (done[w.op()] < w.chunks()) return false;
        return true;
    }

    boolean finished() {
        while (lo < ops && done[lo] == chunks[lo]) lo++;
        return lo == ops;
    }
}
