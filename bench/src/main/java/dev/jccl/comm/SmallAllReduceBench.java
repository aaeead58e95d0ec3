package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Per-call times of a small float32 sum allreduce (8 B unless told), threads as ranks, on the LL
 * protocol and on Simple side by side: 2 ranks over shm, 2 over tcp, 4 over shm. Prints median,
 * p99 and mean per call, so that bursts of descheduling (which set the mean on a host with more
 * ranks than cores) are told apart from the typical call, and the ratio Simple / LL of the medians.
 * Not a test: nothing is asserted.
 *
 * <pre>bench/run-main.sh dev.jccl.comm.SmallAllReduceBench [calls] [bytes]</pre>
 * JCCL_SPIN, JCCL_ALGO and JCCL_DEBUG are read as -D options (JAVA_OPTS=-DJCCL_SPIN=20us). Run it under
 * {@code flock /work/bench.lock} on a shared machine.
 */
public final class SmallAllReduceBench {
    private record Config(int ranks, String provider) {}

    private record Stats(double medianUs, double p99Us, double meanUs) {}

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        long bytes = args.length > 1 ? Long.parseLong(args[1]) : 8;
        List<Config> configs = List.of(new Config(2, "shm"), new Config(2, "tcp"), new Config(4, "shm"));
        List<String> rows = new ArrayList<>();
        rows.add(String.format(Locale.ROOT, "%-12s %8s | %-30s | %-30s | %s", "ranks/path", "bytes", "Simple: median / p99 / mean us",
                "LL: median / p99 / mean us", "Simple/LL (median)"));
        for (Config c : configs) {
            Stats simple = measure(c, "simple", calls, bytes);
            Stats ll = measure(c, "ll", calls, bytes);
            rows.add(String.format(Locale.ROOT, "%-12s %8d | %8.2f / %8.2f / %8.2f   | %8.2f / %8.2f / %8.2f   | %.2fx",
                    c.ranks() + " " + c.provider(), bytes, simple.medianUs(), simple.p99Us(), simple.meanUs(),
                    ll.medianUs(), ll.p99Us(), ll.meanUs(), simple.medianUs() / ll.medianUs()));
        }
        System.out.println("allreduce float32 sum, " + calls + " calls per row after as many to warm up; cores: "
                + Runtime.getRuntime().availableProcessors());
        rows.forEach(System.out::println);
    }

    private static Stats measure(Config c, String proto, int calls, long bytes) throws Exception {
        var knobs = CommRanks.knobs("JCCL_TRANSPORT", c.provider(), "JCCL_TIMEOUT", "60s", "JCCL_PROTO", proto);
        for (String k : new String[] {"JCCL_SPIN", "JCCL_ALGO", "JCCL_DEBUG"}) {
            if (System.getProperty(k) != null) knobs.put(k, System.getProperty(k));
        }
        List<Stats> perRank = CommRanks.run(c.ranks(), knobs, comm -> {
            MemorySegment buf = Arena.ofAuto().allocate(Math.max(bytes, 8), 64);
            long count = Math.max(1, bytes / 4);
            for (int i = 0; i < calls; i++) comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
            comm.barrier().await();
            long[] each = new long[calls];
            long t0 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                long s = System.nanoTime();
                comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
                each[i] = System.nanoTime() - s;
            }
            double mean = (System.nanoTime() - t0) / 1e3 / calls;
            Arrays.sort(each);
            return new Stats(each[calls / 2] / 1e3, each[(int) (calls * 0.99)] / 1e3, mean);
        });
        return perRank.getFirst();
    }
}
