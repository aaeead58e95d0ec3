package dev.jccl.testkit.ddp;

import dev.jccl.BFloat16;
import dev.jccl.DataType;
import dev.jccl.Half;
import dev.jccl.ddp.GradientCollectives;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Collectives among threads of one JVM, for testing what sits above them (data parallelism) without a
 * transport. Each rank's n-th call meets the other ranks' n-th calls; when all have arrived, one
 * executor thread carries it out, so calls complete asynchronously and in issue order, as on a real
 * communicator. Sums run in rank order with a float accumulator and one rounding into the element
 * type, so every rank gets identical bits. Calls whose kind, type or size differ between ranks fail on
 * every rank with both values named.
 */
public final class InMemoryCollectives implements AutoCloseable {
    private final int worldSize;
    private final Map<Long, Call> arriving = new HashMap<>();
    private final ExecutorService executor;
    private final long timeoutMs;
    private final AtomicInteger callsRun = new AtomicInteger();
    private final Member[] members;

    public InMemoryCollectives(int worldSize, long timeoutMs) {
        if (worldSize < 1) throw new IllegalArgumentException("world size must be >= 1, got " + worldSize);
        this.worldSize = worldSize;
        this.timeoutMs = timeoutMs;
        this.executor = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon().name("in-memory-collectives").unstarted(r));
        this.members = new Member[worldSize];
        for (int r = 0; r < worldSize; r++) members[r] = new Member(r);
    }

    /** The member for {@code rank} (always the same one); use it from one thread. */
    public GradientCollectives member(int rank) {
        if (rank < 0 || rank >= worldSize) throw new IllegalArgumentException("rank " + rank + " outside [0, " + worldSize + ")");
        return members[rank];
    }

    /** Collectives carried out so far (each counted once, not per rank). */
    public int callsRun() {
        return callsRun.get();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    private enum Kind { BROADCAST, ALL_REDUCE, REDUCE_SCATTER, ALL_GATHER }

    private record Arrival(MemorySegment in, MemorySegment out) {}

    private final class Call implements GradientCollectives.Pending {
        final long seq;
        final Kind kind;
        final DataType type;
        final long inBytes;
        final int root;
        final Arrival[] arrivals = new Arrival[worldSize];
        final CountDownLatch done = new CountDownLatch(1);
        int arrived;
        volatile RuntimeException failure;

        Call(long seq, Kind kind, DataType type, long inBytes, int root) {
            this.seq = seq;
            this.kind = kind;
            this.type = type;
            this.inBytes = inBytes;
            this.root = root;
        }

        @Override
        public boolean isDone() {
            return done.getCount() == 0;
        }

        @Override
        public void await() {
            try {
                if (!done.await(timeoutMs, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("call " + seq + " (" + kind + ") not complete after " + timeoutMs
                            + " ms: " + arrived + " of " + worldSize + " ranks arrived");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for call " + seq, e);
            }
            if (failure != null) throw failure;
        }

        void run() {
            try {
                switch (kind) {
                    case BROADCAST -> {
                        for (int r = 0; r < worldSize; r++) if (r != root) arrivals[r].out().copyFrom(arrivals[root].in());
                    }
                    case ALL_REDUCE -> sumInto(0, arrivals[0].in().byteSize() / type.byteSize(), r -> arrivals[r].out(), 0);
                    case REDUCE_SCATTER -> {
                        long block = arrivals[0].out().byteSize() / type.byteSize();
                        for (int r = 0; r < worldSize; r++) {
                            int owner = r;
                            sumInto(owner * block, block, x -> x == owner ? arrivals[owner].out() : null, -owner * block);
                        }
                    }
                    case ALL_GATHER -> {
                        long block = arrivals[0].in().byteSize();
                        for (int r = 0; r < worldSize; r++) {
                            for (int from = 0; from < worldSize; from++) {
                                MemorySegment.copy(arrivals[from].in(), 0, arrivals[r].out(), from * block, block);
                            }
                        }
                    }
                }
                callsRun.incrementAndGet();
            } catch (RuntimeException e) {
                failure = e;
            } finally {
                done.countDown();
            }
        }

        /** Sums elements [from, from+n) of every input in rank order; writes to each non-null target at offset + shift. */
        private void sumInto(long from, long n, java.util.function.IntFunction<MemorySegment> target, long shift) {
            float[] acc = new float[(int) n];
            for (int r = 0; r < worldSize; r++) {
                MemorySegment in = arrivals[r].in();
                for (int i = 0; i < n; i++) acc[i] += read(in, from + i);
            }
            for (int r = 0; r < worldSize; r++) {
                MemorySegment out = target.apply(r);
                if (out == null) continue;
                for (int i = 0; i < n; i++) write(out, from + i + shift, acc[i]);
            }
        }

        private float read(MemorySegment s, long i) {
            return switch (type) {
                case FLOAT32 -> s.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i);
                case BFLOAT16 -> BFloat16.toFloat(s.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i));
                case FLOAT16 -> Half.toFloat(s.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i));
                default -> throw new IllegalArgumentException("no sum for " + type.ncclName());
            };
        }

        private void write(MemorySegment s, long i, float v) {
            switch (type) {
                case FLOAT32 -> s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, v);
                case BFLOAT16 -> s.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, BFloat16.fromFloat(v));
                case FLOAT16 -> s.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, Half.fromFloat(v));
                default -> throw new IllegalArgumentException("no sum for " + type.ncclName());
            }
        }
    }

    private final class Member implements GradientCollectives {
        private final int rank;
        private long nextSeq;

        Member(int rank) {
            this.rank = rank;
        }

        @Override public int rank() { return rank; }

        @Override public int worldSize() { return worldSize; }

        @Override
        public Pending broadcast(MemorySegment buffer, DataType type, int root) {
            return arrive(Kind.BROADCAST, type, buffer, buffer, root);
        }

        @Override
        public Pending allReduceSum(MemorySegment buffer, DataType type) {
            return arrive(Kind.ALL_REDUCE, type, buffer, buffer, -1);
        }

        @Override
        public Pending reduceScatterSum(MemorySegment input, MemorySegment output, DataType type) {
            if (input.byteSize() != output.byteSize() * worldSize) {
                throw new IllegalArgumentException("reduce-scatter input " + input.byteSize() + " B is not " + worldSize + " x output "
                        + output.byteSize() + " B");
            }
            return arrive(Kind.REDUCE_SCATTER, type, input, output, -1);
        }

        @Override
        public Pending allGather(MemorySegment input, MemorySegment output, DataType type) {
            if (output.byteSize() != input.byteSize() * worldSize) {
                throw new IllegalArgumentException("all-gather output " + output.byteSize() + " B is not " + worldSize + " x input " + input.byteSize() + " B");
            }
            return arrive(Kind.ALL_GATHER, type, input, output, -1);
        }

        private Pending arrive(Kind kind, DataType type, MemorySegment in, MemorySegment out, int root) {
            long seq = nextSeq++;
            Call call;
            boolean complete;
            synchronized (arriving) {
                call = arriving.computeIfAbsent(seq, s -> new Call(s, kind, type, in.byteSize(), root));
                if (call.kind != kind || call.type != type || call.inBytes != in.byteSize() || call.root != root) {
                    call.failure = new IllegalStateException("call " + seq + " differs between ranks: " + call.kind + " "
                            + call.type + " " + call.inBytes + " B root " + call.root + " vs rank " + rank + ": " + kind + " "
                            + type + " " + in.byteSize() + " B root " + root);
                }
                call.arrivals[rank] = new Arrival(in, out);
                complete = ++call.arrived == worldSize;
                if (complete) arriving.remove(seq);
            }
            if (complete) {
                if (call.failure != null) call.done.countDown();
                else executor.execute(call::run);
            }
            return call;
        }
    }
}
