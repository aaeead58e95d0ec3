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
 * largest size; per size an optional checked call, warm-up calls, then {@code iters} calls issued
 * back to back and awaited once (operations complete in order, like a stream), or with {@code -z 1}
 * each awaited before the next. The time is the
 * slowest rank's mean, agreed with a MAX allreduce after timing.
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
            MemorySegment time = arena.allocate(16, 8);
            in.fill((byte) 0);
            out.fill((byte) 0);
            jitWarmup(comm, o, sizes, in, out, time);
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

    /**
     * Untimed rounds of the timed loop itself, at the smallest size and a mid-sized one (the two
     * shapes of the data path: one chunk, and chunks pipelined through the slots), out of place and
     * in place. Running the very loop that is timed later matters: warming only the calls left the
     * first timed size 2-3x slower than the second. Rounds go on for {@code jitWarmupNs}, and then
     * until a round is no longer 5% faster than the best before it (at most four times as long): on
     * two cores busy with spinning ranks the JIT's compiler threads get little time, and it measured
     * still compiling the hot path 4 s in. The ranks agree on both figures with one MAX allreduce,
     * so they always issue the same calls.
     */
    private static void jitWarmup(Communicator comm, CollOptions o, List<Long> sizes, MemorySegment in,
                                  MemorySegment out, MemorySegment scratch) {
        if (o.jitWarmupNs() == 0 || sizes.isEmpty()) return;
        int n = comm.size();
        CollOptions warm = new CollOptions(o.test(), o.minBytes(), o.maxBytes(), o.factor(), 200, 0, false, o.op(),
                o.type(), o.root(), o.json(), 0, o.blocking(), 0);
        long small = sizes.getFirst();
        long mid = Math.min(sizes.getLast(), 1L << 20);
        long t0 = System.nanoTime();
        long bestRoundNs = Long.MAX_VALUE;
        while (true) {
            long roundStart = System.nanoTime();
            for (long bytes : new long[] {small, mid}) {
                long count = o.test().count(bytes, o.type().byteSize(), n);
                measure(comm, warm, count, bytes, in, out, false, scratch);
                measure(comm, warm, count, bytes, in, out, true, scratch);
            }
            long now = System.nanoTime();
            scratch.set(ValueLayout.JAVA_LONG, 0, now - t0);
            scratch.set(ValueLayout.JAVA_LONG, 8, now - roundStart);
            comm.allReduce(scratch, 2, DataType.INT64, ReduceOp.MAX).await();
            long elapsedNs = scratch.get(ValueLayout.JAVA_LONG, 0);
            long roundNs = scratch.get(ValueLayout.JAVA_LONG, 8);
            boolean improving = roundNs < bestRoundNs * 0.95;
            bestRoundNs = Math.min(bestRoundNs, roundNs);
            if (elapsedNs >= 4 * o.jitWarmupNs() || (elapsedNs >= o.jitWarmupNs() && !improving)) return;
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
        for (int i = 0; i < o.warmup(); i++) call(comm, o, count, in, out, inPlace);
        comm.barrier().await();
        long t0 = System.nanoTime();
        Work last = null;
        int iters = o.iters(bytes);
        for (int i = 0; i < iters; i++) {
            last = call(comm, o, count, in, out, inPlace);
            if (o.blocking()) last.await();
        }
        last.await();
        double meanUs = (System.nanoTime() - t0) / 1e3 / iters;
        time.set(ValueLayout.JAVA_DOUBLE, 0, meanUs);
        comm.allReduce(time, 1, DataType.FLOAT64, ReduceOp.MAX).await();
        double slowestUs = time.get(ValueLayout.JAVA_DOUBLE, 0);
        if (o.check()) {
            time.set(ValueLayout.JAVA_DOUBLE, 0, wrong);
            comm.allReduce(time, 1, DataType.FLOAT64, ReduceOp.SUM).await();
            wrong = (long) time.get(ValueLayout.JAVA_DOUBLE, 0);
        }
        double algBw = slowestUs == 0 ? 0 : bytes / slowestUs / 1e3;
        return new CollResult.Figures(slowestUs, algBw, algBw * o.test().busBwFactor(n), wrong);
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
