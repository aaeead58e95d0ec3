package dev.jccl.plan;

import dev.jccl.algo.Algorithm;
import dev.jccl.algo.ChunkHazards;
import dev.jccl.algo.Collective;
import dev.jccl.algo.CollectiveArgs;
import dev.jccl.algo.HostTopology;
import dev.jccl.algo.Placement;
import dev.jccl.algo.RankSchedule;
import dev.jccl.algo.Schedules;
import dev.jccl.algo.Step;
import dev.jccl.algo.Tuner;

/**
 * Runs the real schedules of one allreduce, chunk by chunk, against a modelled network instead of
 * a formula. Every rank and channel is a {@link SimProgram}; a chunk runs when the executor's rules
 * let it (chunk hazards, FIFO per link, slot credits) and, for a transfer, when its links are free.
 * Links are FIFO queues booked when a chunk is posted, each with a bandwidth and a latency: per rank
 * an outgoing and an incoming intra-host port, per host an outgoing and an incoming NIC that every
 * flow leaving or entering the host shares. A reducing receive occupies its rank's reducer. Channel 0
 * stands for every channel (see the comment in {@code simulate}), and where the schedule has a
 * {@link Symmetry} the ranks of host 0 stand for every host. Chunks are
 * coarsened (both ends alike) where an operation or the whole run would have too many.
 */
public final class Simulator {
    private Simulator() {}

    /** Chunks are coarsened so that no operation has more than this many... */
    public static final int MAX_CHUNKS_PER_OP = 64;
    /** ... and all simulated sends together no more than this many (three events each): seconds, not minutes, at 1024 ranks. */
    public static final long CHUNK_BUDGET = 300_000;
    /** How many operations past the first unfinished one a rank looks at, as the executor keeps several steps in flight. */
    static final int WINDOW = 24;
    private static final int SEND_DONE = 0;
    private static final int DELIVER = 1;
    private static final int APPLY_DONE = 2;
    private static final int COPY_DONE = 3;
    private static final int CREDIT = 4;

    /** Simulates with the closed form's channel count and chunk size for this algorithm. */
    public static SimResult simulate(PlanRequest req, String algorithm) {
        AlgorithmPlan closed = Planner.plan(req).get(algorithm);
        if (!closed.applicable()) throw new IllegalArgumentException(algorithm + ": " + closed.notApplicable());
        return simulate(req, algorithm, closed.channels(), closed.chunkBytes(), closed.timeNs());
    }

    /** Simulates at a given channel count and chunk size (what a measured run used), beside the closed form's time for them. */
    public static SimResult simulate(PlanRequest req, String algorithm, int channels, long chunkBytes) {
        return simulate(req, algorithm, channels, chunkBytes, Planner.predictAllReduceNs(req, algorithm, channels, chunkBytes));
    }

    static SimResult simulate(PlanRequest req, String algorithm, int channels, long chunkBytes, long closedNs) {
        Algorithm a = Algorithm.parse(algorithm);
        return simulate(req, a, Symmetry.of(a, Planner.topology(req)), channels, chunkBytes, closedNs);
    }

    static SimResult simulate(PlanRequest req, Algorithm a, Symmetry sym, int channels, long chunkBytes, long closedNs) {
        long wall = System.nanoTime();
        HostTopology t = Planner.topology(req);
        int n = t.nranks();
        long bytes = sym == Symmetry.NONE ? req.bytes() : Math.max(1, req.bytes() / ((long) n * channels)) * n * channels;
        CollectiveArgs args = CollectiveArgs.of(Collective.ALL_REDUCE, bytes);
        // Channels run the same schedule over equal slices and share every link, so one channel at
        // 1/channels of each bandwidth stands for all of them (and costs 1/channels of the events).
        RankSchedule[] s = new RankSchedule[sym.simulated(t)];
        long largest = 1;
        long sent = 0;
        for (int r = 0; r < s.length; r++) {
            s[r] = Schedules.build(a, args, t, r, 0, channels, 1);
            for (Step st : s[r].steps()) if (st.send() != null) largest = Math.max(largest, st.send().from().count());
            sent += s[r].sentElems();
        }
        long simChunk = Math.max(chunkBytes, Math.max(ceil(largest, MAX_CHUNKS_PER_OP), ceil(sent, CHUNK_BUDGET)));
        SimProgram[] p = new SimProgram[s.length];
        for (int r = 0; r < s.length; r++) p[r] = new SimProgram(s[r], 0, ChunkHazards.of(s[r], simChunk, Placement.inPlace(args, r)));
        for (SimProgram q : p) q.link(p, sym, t);
        Run run = new Run(new SimNetwork(req, t, channels, sym), p, sym, t, slots(chunkBytes));
        double end = run.go();
        return new SimResult(a.knobName(), n, bytes, Math.round(end), closedNs, channels, chunkBytes, simChunk, run.events,
                System.nanoTime() - wall, run.net.bottleneck(end));
    }

    /**
     * Slot credits per link and channel, as the runtime's FIFO has them: {@link Tuner#SLOTS} slots of
     * buffBytes / SLOTS each, one chunk per slot however small the chunk (fewer if chunks are larger).
     */
    static int slots(long chunkBytes) {
        return Tuner.slots(Tuner.DEFAULT_BUFF_BYTES, chunkBytes);
    }

    private static long ceil(long a, long b) {
        return (a + b - 1) / b;
    }

    /** One simulation in progress. */
    private static final class Run {
        final SimProgram[] p;
        final Symmetry sym;
        final HostTopology t;
        final SimNetwork net;
        final EventHeap heap = new EventHeap();
        final int slots;
        long events;
        double now;
        /** When the last chunk was done: the allreduce's end. Credits still travelling back after it do not delay the call. */
        double end;

        Run(SimNetwork net, SimProgram[] p, Symmetry sym, HostTopology t, int slots) {
            this.p = p;
            this.sym = sym;
            this.t = t;
            this.net = net;
            this.slots = slots;
        }

        double go() {
            for (SimProgram q : p) for (int op = 0; op < Math.min(q.ops, WINDOW); op++) check(q, op);
            while (!heap.isEmpty()) {
                now = heap.peekTime();
                long e = heap.pop();
                events++;
                int type = (int) (e >>> 60);
                SimProgram q = p[(int) (e >>> 32) & 0x0FFF_FFFF];
                int op = (int) e;
                switch (type) {
                    case SEND_DONE, COPY_DONE -> done(q, op);
                    case DELIVER -> {
                        int y = q.recvOps[op][q.recvPtr[op]];
                        if (++q.arrived[y] == q.chunks[y]) q.recvPtr[op]++;
                        check(q, y);
                    }
                    case APPLY_DONE -> {
                        // The freed slot's credit travels back to the sender, one message latency later.
                        push(now + net.latencyNs(q.rank, q.peerRank[op]), CREDIT, peer(q, op), q.remoteIdx[op]);
                        done(q, op);
                    }
                    case CREDIT -> {
                        q.inflight[op]--;
                        if (q.sendPtr[op] < q.sendOps[op].length) check(q, q.sendOps[op][q.sendPtr[op]]);
                    }
                    default -> throw new IllegalStateException("event type " + type);
                }
            }
            for (SimProgram q : p) {
                if (!q.finished()) {
                    throw new IllegalStateException("simulation stalled: rank " + q.rank + " waits at operation " + q.lo + " of " + q.ops
                            + " " + q.hazards.ops().get(q.lo));
                }
            }
            return end;
        }

        /** A chunk of {@code op} is done: what waited on it may run, and the window may move on. */
        private void done(SimProgram q, int op) {
            end = Math.max(end, now);
            q.done[op]++;
            for (int y : q.dependents[op]) check(q, y);
            int oldHi = Math.min(q.ops, q.lo + WINDOW);
            q.finished();
            int hi = Math.min(q.ops, q.lo + WINDOW);
            for (int y = oldHi; y < hi; y++) check(q, y);
        }

        private void push(double at, int type, SimProgram q, int op) {
            heap.push(at, (long) type << 60 | (long) q.rank << 32 | (op & 0xFFFF_FFFFL));
        }

        /** The simulated program that plays the peer of {@code op}. */
        private SimProgram peer(SimProgram q, int op) {
            return p[sym.representative(q.peerRank[op], t)];
        }

        /** Starts every chunk of {@code op} that may run now, if it is within its program's window. */
        private void check(SimProgram q, int op) {
            if (op < q.lo || op >= q.lo + WINDOW) return;
            switch (q.kind[op]) {
                case SimProgram.SEND -> {
                    int prev = q.prevSameLink[op];
                    if (prev >= 0 && q.started[prev] < q.chunks[prev]) return;
                    int k = q.peerIdx[op];
                    while (q.started[op] < q.chunks[op] && q.inflight[k] < slots && q.waitsMet(op, q.started[op])) {
                        long b = q.chunkBytes(op, q.started[op]++);
                        q.inflight[k]++;
                        double[] times = net.transfer(now, q.rank, q.peerRank[op], b);
                        push(times[0], SEND_DONE, q, op);
                        push(times[1], DELIVER, peer(q, op), q.remoteIdx[op]);
                    }
                    if (q.started[op] == q.chunks[op] && q.sendPtr[k] < q.sendOps[k].length && q.sendOps[k][q.sendPtr[k]] == op) {
                        q.sendPtr[k]++;
                        if (q.sendPtr[k] < q.sendOps[k].length) check(q, q.sendOps[k][q.sendPtr[k]]);
                    }
                }
                case SimProgram.RECV -> {
                    while (q.started[op] < q.arrived[op] && q.waitsMet(op, q.started[op])) {
                        long b = q.chunkBytes(op, q.started[op]++);
                        push(q.reduces[op] ? net.reduce(now, q.rank, b) : now, APPLY_DONE, q, op);
                    }
                }
                default -> {
                    while (q.started[op] < q.chunks[op] && q.waitsMet(op, q.started[op])) {
                        q.started[op]++;
                        push(now, COPY_DONE, q, op);
                    }
                }
            }
        }
    }
}
