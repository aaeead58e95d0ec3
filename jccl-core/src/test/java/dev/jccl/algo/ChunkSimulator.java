package dev.jccl.algo;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Runs one channel of a collective the way an executor may: chunk by chunk, in a random order that
 * respects nothing but the package's contract: {@link ChunkHazards} waits, FIFO per pair of ranks,
 * and {@code slots} credits per pair. A send reads its data only when it completes (as late as a
 * transport may), so a missing write-after-read wait corrupts the result. Each event also records
 * which ranks it has (transitively) heard from, which is how the barrier's guarantee is checked.
 */
final class ChunkSimulator {
    private record Posted(int op, int chunk, long knowledge) {}

    private record Message(long[] payload, long knowledge, int fromStep) {}

    private enum Kind { POST, COMPLETE, APPLY, COPY }

    private record Event(Kind kind, int rank, int op, int peer) {}

    private final List<RankSchedule> schedules;
    private final List<SimMemory> memories;
    private final Arith arith;
    private final long chunkElems;
    private final int slots;
    private final SplittableRandom random;
    private final int n;
    private final boolean ignoreWaits;
    private final Rank[] ranks;
    /** Per ordered pair (from * n + to): chunks posted, not yet completed; chunks delivered, not yet applied. */
    private final List<ArrayDeque<Posted>> pending = new ArrayList<>();
    private final List<ArrayDeque<Message>> delivered = new ArrayList<>();
    private final int[][] inFlight;

    /** Per-rank state: hazards, chunk progress and what each chunk knew. */
    private final class Rank {
        final int id;
        final RankSchedule schedule;
        final ChunkHazards hazards;
        final List<ChunkHazards.Op> ops;
        final int[] done;
        final int[] posted;
        final long[][] prefixKnowledge;
        final List<ArrayDeque<Integer>> sendsTo = new ArrayList<>();
        final List<ArrayDeque<Integer>> recvsFrom = new ArrayList<>();
        final List<Integer> copies = new ArrayList<>();
        final List<Integer> peers = new ArrayList<>();
        final Map<Long, List<ChunkHazards.Wait>> waits = new HashMap<>();
        final long[] scratch;

        Rank(int id) {
            this.id = id;
            this.schedule = schedules.get(id);
            this.hazards = ChunkHazards.of(schedule, chunkElems, memories.get(id).placement());
            this.ops = hazards.ops();
            this.done = new int[ops.size()];
            this.posted = new int[ops.size()];
            this.prefixKnowledge = new long[ops.size()][];
            for (int p = 0; p < n; p++) { sendsTo.add(new ArrayDeque<>()); recvsFrom.add(new ArrayDeque<>()); }
            for (int i = 0; i < ops.size(); i++) {
                prefixKnowledge[i] = new long[hazards.chunkCount(i) + 1];
                prefixKnowledge[i][0] = 1L << id;
                int peer = ops.get(i).peer();
                if (peer >= 0 && !peers.contains(peer)) peers.add(peer);
                switch (ops.get(i).kind()) {
                    case SEND -> sendsTo.get(ops.get(i).peer()).add(i);
                    case RECV -> recvsFrom.get(ops.get(i).peer()).add(i);
                    case COPY -> copies.add(i);
                }
            }
            this.scratch = new long[Math.toIntExact(schedule.scratchElems())];
            Arrays.fill(scratch, SimMemory.POISON);
        }

        /** Knowledge of chunk {@code chunk} of {@code op} if its waits are met, else -1. */
        long ready(int op, int chunk) {
            long k = 1L << id;
            if (ignoreWaits) return k;
            for (ChunkHazards.Wait w : waits.computeIfAbsent((long) op << 32 | chunk, key -> hazards.waits(op, chunk))) {
                if (done[w.op()] < w.chunks()) return -1;
                k |= prefixKnowledge[w.op()][w.chunks()];
            }
            return k;
        }

        void finish(int op, long knowledge) {
            int c = done[op]++;
            prefixKnowledge[op][c + 1] = prefixKnowledge[op][c] | knowledge;
        }

        Span span(int op, int which) {
            Step s = schedule.steps().get(ops.get(op).step());
            return switch (ops.get(op).kind()) {
                case SEND -> s.send().from();
                case COPY -> which == 0 ? s.copy().from() : s.copy().into();
                case RECV -> which == 0 ? s.recv().operand() : s.recv().into();
            };
        }

        long knowledge() {
            long k = 1L << id;
            for (int i = 0; i < ops.size(); i++) k |= prefixKnowledge[i][done[i]];
            return k;
        }
    }

    ChunkSimulator(List<RankSchedule> schedules, List<SimMemory> memories, Arith arith, long chunkElems, int slots, long seed) {
        this(schedules, memories, arith, chunkElems, slots, seed, false);
    }

    /** With {@code ignoreWaits}, hazards are not respected: only for showing that the checks catch it. */
    ChunkSimulator(List<RankSchedule> schedules, List<SimMemory> memories, Arith arith, long chunkElems, int slots, long seed,
                   boolean ignoreWaits) {
        this.ignoreWaits = ignoreWaits;
        this.schedules = schedules;
        this.memories = memories;
        this.arith = arith;
        this.chunkElems = chunkElems;
        this.slots = slots;
        this.random = new SplittableRandom(seed);
        this.n = schedules.size();
        if (n > 64) throw new IllegalArgumentException("knowledge is a 64-bit mask");
        this.inFlight = new int[n][n];
        for (int i = 0; i < n * n; i++) { pending.add(new ArrayDeque<>()); delivered.add(new ArrayDeque<>()); }
        this.ranks = new Rank[n];
        for (int r = 0; r < n; r++) ranks[r] = new Rank(r);
    }

    /** Runs to the end; returns, per rank, the mask of ranks it has heard from (itself included). */
    long[] run() {
        List<Event> enabled = new ArrayList<>();
        while (true) {
            enabled.clear();
            for (Rank r : ranks) collect(r, enabled);
            if (enabled.isEmpty()) break;
            // An enabled event stays enabled while others run: each FIFO head, credit count and
            // delivered message belongs to one event. So a random prefix of a shuffled batch is a
            // valid order too, and saves a scan per event.
            Collections.shuffle(enabled, new java.util.Random(random.nextLong()));
            int batch = 1 + random.nextInt(enabled.size());
            for (int i = 0; i < batch; i++) execute(enabled.get(i));
        }
        for (Rank r : ranks) {
            for (int op = 0; op < r.ops.size(); op++) {
                if (r.done[op] < r.hazards.chunkCount(op)) throw new AssertionError("deadlock (" + slots + " slots): " + state());
            }
        }
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (!delivered.get(a * n + b).isEmpty()) {
                    throw new AssertionError("rank " + a + " step " + delivered.get(a * n + b).peek().fromStep() + " sent a chunk to rank "
                            + b + " that no receive took");
                }
            }
        }
        long[] knowledge = new long[n];
        for (int r = 0; r < n; r++) knowledge[r] = ranks[r].knowledge();
        return knowledge;
    }

    private void collect(Rank r, List<Event> out) {
        for (int p : r.peers) {
            Integer send = head(r.sendsTo.get(p), r.posted, r);
            if (send != null && inFlight[r.id][p] < slots && r.ready(send, r.posted[send]) >= 0) out.add(new Event(Kind.POST, r.id, send, p));
            if (!pending.get(r.id * n + p).isEmpty()) out.add(new Event(Kind.COMPLETE, r.id, pending.get(r.id * n + p).peek().op(), p));
            Integer recv = head(r.recvsFrom.get(p), r.done, r);
            if (recv != null && !delivered.get(p * n + r.id).isEmpty() && r.ready(recv, r.done[recv]) >= 0) out.add(new Event(Kind.APPLY, r.id, recv, p));
        }
        for (int op : r.copies) {
            if (r.done[op] < r.hazards.chunkCount(op) && r.ready(op, r.done[op]) >= 0) out.add(new Event(Kind.COPY, r.id, op, -1));
        }
    }

    /** The first operation of a per-peer FIFO that still has chunks to start. */
    private static Integer head(ArrayDeque<Integer> fifo, int[] progress, Rank r) {
        while (!fifo.isEmpty() && progress[fifo.peek()] == r.hazards.chunkCount(fifo.peek())) fifo.poll();
        return fifo.peek();
    }

    private void execute(Event e) {
        Rank r = ranks[e.rank()];
        SimMemory mem = memories.get(r.id);
        switch (e.kind()) {
            case POST -> {
                int chunk = r.posted[e.op()]++;
                pending.get(r.id * n + e.peer()).add(new Posted(e.op(), chunk, r.ready(e.op(), chunk)));
                inFlight[r.id][e.peer()]++;
            }
            case COMPLETE -> {
                Posted p = pending.get(r.id * n + e.peer()).poll();
                if (r.done[p.op()] != p.chunk()) throw new AssertionError("send chunks completed out of order");
                Span from = ChunkHazards.chunkOf(r.span(p.op(), 0), p.chunk(), chunkElems);
                delivered.get(r.id * n + e.peer()).add(new Message(mem.read(from, r.scratch), p.knowledge(), r.ops.get(p.op()).step()));
                r.finish(p.op(), p.knowledge());
            }
            case APPLY -> {
                int chunk = r.done[e.op()];
                long k = r.ready(e.op(), chunk);
                Message m = delivered.get(e.peer() * n + r.id).poll();
                Span into = ChunkHazards.chunkOf(r.span(e.op(), 1), chunk, chunkElems);
                if (m.payload().length != into.count()) {
                    throw new AssertionError("rank " + r.id + " step " + r.ops.get(e.op()).step() + " chunk " + chunk + " expects "
                            + into.count() + " elements from rank " + e.peer() + " but its step " + m.fromStep() + " sent " + m.payload().length);
                }
                Span operand = r.span(e.op(), 0);
                boolean incomingFirst = r.schedule.steps().get(r.ops.get(e.op()).step()).recv().incomingFirst();
                mem.apply(into, operand == null ? null : ChunkHazards.chunkOf(operand, chunk, chunkElems), incomingFirst, m.payload(), arith, r.scratch);
                inFlight[e.peer()][r.id]--;
                r.finish(e.op(), k | m.knowledge());
            }
            case COPY -> {
                int chunk = r.done[e.op()];
                long k = r.ready(e.op(), chunk);
                Span from = ChunkHazards.chunkOf(r.span(e.op(), 0), chunk, chunkElems);
                mem.apply(ChunkHazards.chunkOf(r.span(e.op(), 1), chunk, chunkElems), null, false, mem.read(from, r.scratch), arith, r.scratch);
                r.finish(e.op(), k);
            }
        }
    }

    private String state() {
        StringBuilder b = new StringBuilder();
        for (Rank r : ranks) {
            b.append("\n  rank ").append(r.id).append(':');
            for (int op = 0; op < r.ops.size(); op++) {
                if (r.done[op] < r.hazards.chunkCount(op)) {
                    b.append(" [op ").append(op).append(' ').append(r.ops.get(op)).append(" done ").append(r.done[op])
                            .append('/').append(r.hazards.chunkCount(op)).append(']');
                }
            }
        }
        return b.toString();
    }
}
