package dev.jccl.netns;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.Jccl;
import dev.jccl.ReduceOp;
import dev.jccl.trace.DataPathCounters;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * One rank of a plan-against-measurement run ({@link PlanVsMeasured}), started by {@code jccl
 * launch}: times out-of-place float32 SUM allReduces of each size, each awaited before the next (the
 * planner prices one allreduce, not a stream of them), and rank 0 prints
 * {@code MEASURED bytes=B ns=N iters=I ok=B probe=NS cpu=MILLICORES plan=P}: the slowest rank's mean per call,
 * the mean of a 4 KiB latency probe interleaved with its calls, the cores the ranks' processes kept busy over
 * the timed loop (CPU time / wall time, summed over ranks, in thousandths), and the plan its tuner compiled
 * for the size (algorithm, channels, chunk).
 *
 * <p>Args: SECONDS_PER_SIZE MIN_BYTES_PER_SIZE SIZE... A size runs at least 3 calls and as many more
 * as fit in SECONDS_PER_SIZE, but never fewer than move MIN_BYTES_PER_SIZE: a token bucket lets its
 * burst through at line rate, so a timed loop must move many bursts before its mean shows the rate.
 */
public final class PlanRank {
    private static final int MAX_ITERS = 2_000;
    /** The latency probe of each size: about this many awaited allReduces of {@link #PROBE_BYTES} (nearly all latency) among its calls. */
    static final int PROBE_ITERS = 20;
    static final long PROBE_BYTES = 4096;
    /** The untimed pass over every size: calls that move about this much, 3 to 50 of them. */
    private static final long WARM_BYTES = 4L << 20;

    private PlanRank() {}

    public static void main(String[] args) {
        double secondsPerSize = Double.parseDouble(args[0]);
        long minBytes = Long.parseLong(args[1]);
        long[] sizes = Arrays.stream(args, 2, args.length).mapToLong(Long::parseLong).toArray();
        NetRank.advertiseThroughRelay();
        try (Communicator comm = Jccl.init(); Arena arena = Arena.ofShared()) {
            long max = Arrays.stream(sizes).max().orElseThrow();
            MemorySegment in = arena.allocate(max, 64);
            MemorySegment out = arena.allocate(max, 64);
            MemorySegment scratch = arena.allocate(8, 8);
            NetRank.fill(in, max / 4, comm.rank());
            // Compiled code before the first timed call: a cold JVM's data path is many times slower.
            for (int i = 0; i < 200; i++) allReduce(comm, in, out, 4096);
            // In place, a call shape no timed size has, so each size's first call compiles (and names) its own plan.
            for (int i = 0; i < 20; i++) comm.allReduce(out, Math.min(max, 256 << 10) / 4, DataType.FLOAT32, ReduceOp.SUM).await();
            // Every size a few times before any is timed: each size brings code paths (channels, chunk sizes, the bulk hand-off)
            // the 4 KiB warm-up never ran, and 8 JVMs compiling them (C2 recompiling after each deoptimization) took a quarter
            // of the shared cores into the timed loops of the later sizes. Out of place, so the plans timed below are compiled here.
            String[] plans = new String[sizes.length];
            for (int k = 0; k < sizes.length; k++) {
                allReduce(comm, in, out, sizes[k]);
                // Read before the next call compiles another plan: what this size runs with, e.g. "allReduce ring, 2 channel(s), chunk 64 KiB".
                plans[k] = DataPathCounters.lastPlan();
                for (long i = Math.clamp(WARM_BYTES / sizes[k], 3, 50); i > 1; i--) allReduce(comm, in, out, sizes[k]);
            }
            for (int k = 0; k < sizes.length; k++) {
                long bytes = sizes[k];
                String plan = plans[k];
                long first = allReduce(comm, in, out, bytes);
                long one = agreeMax(comm, scratch, first);
                long byTime = (long) (secondsPerSize * 1e9 / Math.max(1, one));
                int iters = (int) Math.min(MAX_ITERS, Math.max(3, Math.max(Math.min(byTime, MAX_ITERS), minBytes / bytes)));
                comm.barrier().await();
                comm.barrier().await();
                // Alpha measured on the spot, what jccl plan --measured takes: probes interleaved with the timed calls, so both see
                // the same load; about PROBE_ITERS of them, after every k-th call.
                int every = Math.max(1, iters / PROBE_ITERS);
                long sum = 0;
                long probeSum = 0;
                int probes = 0;
                long cpu0 = cpuNs();
                long wall0 = System.nanoTime();
                for (int i = 0; i < iters; i++) {
                    sum += allReduce(comm, in, out, bytes);
                    if (i % every == 0) {
                        probeSum += allReduce(comm, in, out, PROBE_BYTES);
                        probes++;
                    }
                }
                long wall = System.nanoTime() - wall0;
                long cpu = cpuNs() - cpu0;
                long mean = agreeMax(comm, scratch, sum / iters);
                long probe = agreeMax(comm, scratch, probeSum / probes);
                long milliCores = agreeSum(comm, scratch, cpu * 1000 / Math.max(1, wall));
                boolean ok = out.getAtIndex(ValueLayout.JAVA_FLOAT, bytes / 4 - 1) == NetRank.expected(bytes / 4 - 1, comm.size());
                if (comm.rank() == 0) System.out.println("MEASURED bytes=" + bytes + " ns=" + mean + " iters=" + iters + " ok=" + ok
                        + " probe=" + probe + " cpu=" + milliCores + " plan=" + plan);
                System.out.flush();
            }
        } catch (RuntimeException e) {
            System.out.println("ERROR " + String.valueOf(e.getMessage()).replace('\n', ' '));
        }
        System.out.flush();
        System.exit(0);
    }

    /** One awaited allReduce of {@code bytes}; its time on this rank in ns. */
    private static long allReduce(Communicator comm, MemorySegment in, MemorySegment out, long bytes) {
        long t0 = System.nanoTime();
        comm.allReduce(in, out, bytes / 4, DataType.FLOAT32, ReduceOp.SUM).await();
        return System.nanoTime() - t0;
    }

    /** CPU time of this process so far (every thread: callers, progress threads, the JIT and GC), in ns. */
    private static long cpuNs() {
        return ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L);
    }

    private static long agreeSum(Communicator comm, MemorySegment scratch, long v) {
        scratch.set(ValueLayout.JAVA_LONG, 0, v);
        comm.allReduce(scratch, 1, DataType.INT64, ReduceOp.SUM).await();
        return scratch.get(ValueLayout.JAVA_LONG, 0);
    }

    /** The largest {@code ns} over all ranks, so every rank runs the same number of calls. */
    private static long agreeMax(Communicator comm, MemorySegment scratch, long ns) {
        scratch.set(ValueLayout.JAVA_LONG, 0, ns);
        comm.allReduce(scratch, 1, DataType.INT64, ReduceOp.MAX).await();
        return scratch.get(ValueLayout.JAVA_LONG, 0);
    }
}
