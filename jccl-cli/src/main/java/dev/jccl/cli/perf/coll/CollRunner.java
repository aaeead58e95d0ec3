package dev.jccl.cli.perf.coll;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.Work;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one collective test on one rank, the way nccl-tests does: buffers allocated once at the
 * largest size; per size an optional checked call, warm-up calls, then batches of calls issued back
 * to back (operations complete in order, like a stream), or with {@code -z 1} each awaited before
 * the next. The time is the slowest rank's median over batches of the time per call, agreed with a
 * MAX allreduce after timing ({@link CallStats}): a mean over 20 calls let one descheduled rank set
 * the figure, up to 10x the steady-state time on a busy host.
 */
public final class CollRunner {
    private CollRunner() {}

    /** Runs every size; {@code onRow} sees each size's result as soon as it is measured. */
    public static List<CollResult> run(Communicator comm, CollOptions o, java.util.function.Consumer<CollResult> onRow) {
        int n = comm.size();
        if (o.test().rooted() && o.root() >= n) {
            throw new IllegalArgumentException("-r " + o.root() + " is not a rank of " + n);
        }
        DataType t = o.type();
        List<Long> sizes = o.sizes(n);
        long maxCount = o.test().count(sizes.getLast(), t.byteSize(), n);
        List<CollResult> results = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment in = arena.allocate(Math.max(8, t.bytes(o.test().inputElems(maxCount, n))), 64);
            // In place, the output buffer also holds the input (all of it for reduce_scatter).
            long outElems = Math.max(o.test().inputElems(maxCount, n), o.test().outputElems(maxCount, n));
            MemorySegment out = arena.allocate(Math.max(8, t.bytes(outElems)), 64);
            MemorySegment time = arena.allocate(32, 8);
            in.fill((byte) 0);
            out.fill((byte) 0);
            if (jitWarmup(comm, o, sizes, in, out, time)) {
                // The first size timed after the warm-up (and only it, out of place) measured up to
                // 10-100x its steady state on a loaded host, with the in-place figure right after it
                // normal: the first size is timed once untimed, with the real settings, and dropped.
                long first = sizes.getFirst();
                measure(comm, o.withoutCheck(), o.test().count(first, t.byteSize(), n), first, in, out, false, time);
            }
            for (long bytes : sizes) {
                long count = o.test().count(bytes, t.byteSize(), n);
                CollResult.Figures oop = measure(comm, o, count, bytes, in, out, false, time);
                CollResult.Figures ip = measure(comm, o, count, bytes, in, out, true, time);
                CollResult r = new CollResult(bytes, count, t.ncclName(),
                        o.test().reduces() ? o.op().name().toLowerCase(java.util.Locale.ROOT) : "none",
                        o.test().rooted() ? o.root() : -1, oop, ip);
                results.add(r);
                onRow.accept(r);
            }
        }
        return results;
    }

    /** The warm-up rounds run every size of the sweep up to this one (and the first size, whatever it is). */
    static final long WARM_MAX_BYTES = 8L << 20;

    /**
     * Untimed rounds of the timed loop itself, with the real check setting, at every size of the
     * sweep up to {@link #WARM_MAX_BYTES}, out of place and in place. Running the very loop that is
     * timed later matters: warming only the calls left the first timed size 2-3x slower than the
     * second. Every size matters too: warmed at 8 B and 1 MiB only, the first calls of 2 MiB took
     * branches the compiled data path had never seen (more chunks than FIFO slots), and the JIT threw
     * away and recompiled the channel loop and the reduce kernel; on two busy cores that took about
     * 350 ms, with the size timed at 3-10x its steady state meanwhile. Rounds go on for
     * {@code jitWarmupNs}, and then until a round is no longer 5% faster than the best before it and
     * the JIT compiled for at most {@link JitActivity#QUIET_SHARE} of it on every rank (at most four
     * times as long): on two cores busy with spinning ranks the compiler threads get little time.
     * Measured there: 3 s of compiling in the first round, still 20-100 ms a round 5 s in, and the
     * 8 B figure 100x its steady state while it lasted, with rounds that had stopped getting faster.
     * The ranks agree on the figures with one MAX allreduce, so they always issue the same calls.
     */
    private static boolean jitWarmup(Communicator comm, CollOptions o, List<Long> sizes, MemorySegment in,
                                     MemorySegment out, MemorySegment scratch) {
        if (o.jitWarmupNs() == 0 || sizes.isEmpty()) return false;
        int n = comm.size();
        CollOptions warm = new CollOptions(o.test(), o.minBytes(), o.maxBytes(), o.factor(), 200, Math.max(1, o.warmup()), o.check(),
                o.op(), o.type(), o.root(), o.json(), 0, o.blocking(), 0, Math.min(o.batchNs(), 2_000_000L), 2, false);
        List<Long> warmSizes = sizes.stream().filter(b -> b <= WARM_MAX_BYTES).toList();
        if (warmSizes.isEmpty()) warmSizes = List.of(sizes.getFirst());
        long t0 = System.nanoTime();
        long bestRoundNs = Long.MAX_VALUE;
        while (true) {
            long roundStart = System.nanoTime();
            long jitBefore = JitActivity.compileNs();
            for (long bytes : warmSizes) {
                long count = o.test().count(bytes, o.type().byteSize(), n);
                measure(comm, warm, count, bytes, in, out, false, scratch);
                measure(comm, warm, count, bytes, in, out, true, scratch);
            }
            long now = System.nanoTime();
            long roundNs = now - roundStart;
            scratch.set(ValueLayout.JAVA_LONG, 0, now - t0);
            scratch.set(ValueLayout.JAVA_LONG, 8, roundNs);
            scratch.set(ValueLayout.JAVA_LONG, 16, JitActivity.quiet(JitActivity.compileNs() - jitBefore, roundNs) ? 0 : 1);
            comm.allReduce(scratch, 3, DataType.INT64, ReduceOp.MAX).await();
            long elapsedNs = scratch.get(ValueLayout.JAVA_LONG, 0);
            long slowestRoundNs = scratch.get(ValueLayout.JAVA_LONG, 8);
            boolean compiling = scratch.get(ValueLayout.JAVA_LONG, 16) != 0;
            boolean improving = slowestRoundNs < bestRoundNs * 0.95;
            bestRoundNs = Math.min(bestRoundNs, slowestRoundNs);
            if (elapsedNs >= 4 * o.jitWarmupNs() || (elapsedNs >= o.jitWarmupNs() && !improving && !compiling)) return true;
        }
    }

    private static CollResult.Figures measure(Communicator comm, CollOptions o, long count, long bytes,
                                              MemorySegment in, MemorySegment out, boolean inPlace, MemorySegment time) {
        int n = comm.size();
        long wrong = -1;
        if (o.check()) {
            prepare(comm, o, count, in, out, inPlace);
            call(comm, o, count, in, out, inPlace).await();
            MemorySegment result = inPlace && o.test() == CollTest.REDUCE_SCATTER
                    ? out.asSlice(o.type().bytes(comm.rank() * count)) : out;
            wrong = CollCheck.wrong(o.test(), o.type(), o.op(), o.root(), result, count, comm.rank(), n);
        }
        // Warm-up calls, each awaited, time the size; the slowest rank's figure sizes the untimed batches for all.
        int warmCalls = Math.max(1, o.warmup());
        long w0 = System.nanoTime();
        for (int i = 0; i < warmCalls; i++) call(comm, o, count, in, out, inPlace).await();
        time.set(ValueLayout.JAVA_LONG, 0, (System.nanoTime() - w0) / warmCalls);
        comm.allReduce(time, 1, DataType.INT64, ReduceOp.MAX).await();
        int settlePerBatch = o.callsPerBatch(bytes, time.get(ValueLayout.JAVA_LONG, 0));
        Work[] issued = o.blocking() ? null : new Work[CollOptions.MAX_CALLS_PER_BATCH];
        // The first calls of a new shape are slow (queued rather than run inline, code not yet compiled
        // for it), so the warm-up calls overstate a call: 8 B was timed in batches of 5-50 calls, 1-20 ms
        // in all where 30 batches of 10 ms were asked for. The timed batches are sized from the untimed ones.
        int perBatch = o.callsPerBatch(bytes, settle(comm, o, bytes, count, in, out, inPlace, issued, settlePerBatch, time));
        int calls = perBatch * o.batches();
        long[] stamps = new long[calls + 1];
        comm.barrier().await();
        stamps[0] = System.nanoTime();
        for (int b = 0; b < o.batches(); b++) batch(comm, o, count, in, out, inPlace, issued, perBatch, stamps, b * perBatch + 1);
        CallStats mine = CallStats.of(stamps, calls, perBatch);
        time.setAtIndex(ValueLayout.JAVA_DOUBLE, 0, mine.medianUs());
        time.setAtIndex(ValueLayout.JAVA_DOUBLE, 1, mine.meanUs());
        time.setAtIndex(ValueLayout.JAVA_DOUBLE, 2, mine.p50Us());
        time.setAtIndex(ValueLayout.JAVA_DOUBLE, 3, mine.p99Us());
        comm.allReduce(time, 4, DataType.FLOAT64, ReduceOp.MAX).await();
        double slowestUs = time.getAtIndex(ValueLayout.JAVA_DOUBLE, 0);
        double meanUs = time.getAtIndex(ValueLayout.JAVA_DOUBLE, 1);
        double p50Us = time.getAtIndex(ValueLayout.JAVA_DOUBLE, 2);
        double p99Us = time.getAtIndex(ValueLayout.JAVA_DOUBLE, 3);
        if (o.check()) {
            time.set(ValueLayout.JAVA_DOUBLE, 0, wrong);
            comm.allReduce(time, 1, DataType.FLOAT64, ReduceOp.SUM).await();
            wrong = (long) time.get(ValueLayout.JAVA_DOUBLE, 0);
        }
        double algBw = slowestUs == 0 ? 0 : bytes / slowestUs / 1e3;
        return new CollResult.Figures(slowestUs, algBw, algBw * o.test().busBwFactor(n), wrong, meanUs, p50Us, p99Us);
    }

    /** Untimed batches of a size go on at most this long while the JIT is busy (and never past {@code --jit-warmup}). */
    static final long MAX_SETTLE_NS = 2_000_000_000L;
    /** ... but for at least this many batches, the whole bound with {@code --jit-warmup 0}. */
    static final int MIN_SETTLE_BATCHES = 8;

    /**
     * Untimed batches until one passes with the JIT quiet on every rank ({@link JitActivity}), for at
     * most {@link #MAX_SETTLE_NS} or {@code --jit-warmup}, whichever is shorter, and at least
     * {@link #MIN_SETTLE_BATCHES} batches: the size's steady state. A new size can start compilations
     * of its own (a branch or a protocol not taken before); measured, they cost 30-60 ms of compiling
     * on the first sizes after the warm-up, and a recompile after a deoptimisation about 350 ms on two
     * busy cores, while batches ran 3-10x slow. A bound of 8 batches of 5 ms ended before such a
     * recompile did. Each batch is sized from the one before (from the warm-up calls at first), and
     * a quiet batch ends the settling only if it was at least half as long as a batch should be, so the
     * first slow calls of a shape cannot leave the batches short. The ranks agree on the verdict, on
     * the time spent and on the slowest rank's time per call (returned, in ns) with one MAX allreduce.
     */
    private static long settle(Communicator comm, CollOptions o, long bytes, long count, MemorySegment in, MemorySegment out,
                               boolean inPlace, Work[] issued, int firstPerBatch, MemorySegment flag) {
        long limitNs = Math.min(MAX_SETTLE_NS, o.jitWarmupNs());
        long start = System.nanoTime();
        int perBatch = firstPerBatch;
        for (int b = 1; ; b++) {
            long jit = JitActivity.compileNs();
            long t0 = System.nanoTime();
            batch(comm, o, count, in, out, inPlace, issued, perBatch, null, 0);
            long now = System.nanoTime();
            flag.set(ValueLayout.JAVA_LONG, 0, JitActivity.quiet(JitActivity.compileNs() - jit, now - t0) ? 0 : 1);
            flag.set(ValueLayout.JAVA_LONG, 8, now - start);
            flag.set(ValueLayout.JAVA_LONG, 16, (now - t0) / perBatch);
            comm.allReduce(flag, 3, DataType.INT64, ReduceOp.MAX).await();
            long perCallNs = flag.get(ValueLayout.JAVA_LONG, 16);
            int next = o.callsPerBatch(bytes, perCallNs);
            boolean quiet = flag.get(ValueLayout.JAVA_LONG, 0) == 0;
            boolean fullLength = next <= 2 * perBatch;
            if ((quiet && fullLength) || (b >= MIN_SETTLE_BATCHES && flag.get(ValueLayout.JAVA_LONG, 8) >= limitNs)) return perCallNs;
            perBatch = next;
        }
    }

    /**
     * One batch of {@code perBatch} calls, writing each call's completion time from {@code stamps[at]}
     * on ({@code at == 0}: untimed). Blocking, each call is awaited before the next; otherwise
     * all are issued back to back and then awaited in order, so a stamp is when this rank saw the
     * call complete.
     */
    private static void batch(Communicator comm, CollOptions o, long count, MemorySegment in, MemorySegment out,
                              boolean inPlace, Work[] issued, int perBatch, long[] stamps, int at) {
        boolean timed = at > 0;
        if (issued == null) {
            for (int i = 0; i < perBatch; i++) {
                call(comm, o, count, in, out, inPlace).await();
                if (timed) stamps[at + i] = System.nanoTime();
            }
            return;
        }
        for (int i = 0; i < perBatch; i++) issued[i] = call(comm, o, count, in, out, inPlace);
        for (int i = 0; i < perBatch; i++) {
            issued[i].await();
            issued[i] = null;
            if (timed) stamps[at + i] = System.nanoTime();
        }
    }

    /** Puts this rank's pattern where the call reads it (for in place: where NCCL's conventions put it). */
    private static void prepare(Communicator comm, CollOptions o, long count, MemorySegment in, MemorySegment out,
                                boolean inPlace) {
        int n = comm.size();
        DataType t = o.type();
        if (!inPlace) {
            CollCheck.fillInput(o.test(), t, in, count, comm.rank(), n);
            return;
        }
        if (o.test() == CollTest.ALL_GATHER) {
            CollPattern.fill(t, out.asSlice(t.bytes(comm.rank() * count)), count, comm.rank(), 0);
        } else {
            CollCheck.fillInput(o.test(), t, out, count, comm.rank(), n);
        }
    }

    private static Work call(Communicator c, CollOptions o, long count, MemorySegment in, MemorySegment out, boolean inPlace) {
        DataType t = o.type();
        MemorySegment buf = out; // in place, everything happens in the output buffer
        return switch (o.test()) {
            case ALLREDUCE -> inPlace ? c.allReduce(buf, count, t, o.op()) : c.allReduce(in, out, count, t, o.op());
            case REDUCE_SCATTER -> inPlace ? c.reduceScatter(buf, count, t, o.op()) : c.reduceScatter(in, out, count, t, o.op());
            case ALL_GATHER -> inPlace ? c.allGather(buf, count, t) : c.allGather(in, out, count, t);
            case BROADCAST -> inPlace ? c.broadcast(buf, count, t, o.root()) : c.broadcast(in, out, count, t, o.root());
            case REDUCE -> inPlace ? c.reduce(buf, count, t, o.op(), o.root()) : c.reduce(in, out, count, t, o.op(), o.root());
            case ALLTOALL -> inPlace ? c.allToAll(buf, count, t) : c.allToAll(in, out, count, t);
        };
    }
}
