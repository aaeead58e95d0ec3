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
 * Per-call times of a small float32 sum allreduce (8 B unless told), threads as ranks, on Simple,
 * on LL queued to the progress machinery (JCCL_INLINE=0) and on LL run inline by the caller (the
 * default) side by side: 2 ranks over shm, 2 over tcp, 4 over shm ({@code -Dconfigs=2shm,4shm}
 * picks; {@code -Drounds=3} repeats each row, interleaved). Prints median, p99 and mean per call, so that bursts of descheduling (which set the mean
 * on a host with more ranks than cores) are told apart from the typical call, the bytes the calling
 * thread allocated per call, and the ratio queued / inline of the medians. Not a test: nothing is asserted.
 *
 * <pre>bench/run-main.sh dev.jccl.comm.SmallAllReduceBench [calls] [bytes]</pre>
 * JCCL_SPIN, JCCL_ALGO and JCCL_DEBUG are read as -D options (JAVA_OPTS=-DJCCL_SPIN=20us). On a
 * shared machine run it alone (under {@code flock}), or the figures measure the neighbours.
 */
public final class SmallAllReduceBench {
    private record Config(int ranks, String provider) {}

    private record Stats(double medianUs, double p99Us, double meanUs, double callerBytesPerCall, double handedOnShare) {
        String cell() {
            return String.format(Locale.ROOT, "%7.2f / %7.2f / %7.2f %5.0f %3.0f%%", medianUs, p99Us, meanUs, callerBytesPerCall,
                    100 * handedOnShare);
        }
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        long bytes = args.length > 1 ? Long.parseLong(args[1]) : 8;
        String only = System.getProperty("configs", "2shm,2tcp,4shm");
        List<Config> configs = new ArrayList<>();
        for (String c : only.split(",")) configs.add(new Config(Integer.parseInt(c.substring(0, 1)), c.substring(1)));
        int rounds = Integer.getInteger("rounds", 1);
        List<String> rows = new ArrayList<>();
        rows.add(String.format(Locale.ROOT, "%-10s %6s %5s | %-38s | %-38s | %-38s | %s", "ranks/path", "bytes", "round",
                "Simple: med/p99/mean us, B/call", "LL queued (JCCL_INLINE=0)", "LL inline (default), handed on", "queued/inline (median)"));
        for (Config c : configs) {
            // Rounds interleave the two LL columns, so that a burst of load on a shared host hits both alike.
            for (int round = 1; round <= rounds; round++) {
                String simple = round == 1 ? measure(c, "simple", "1", calls, bytes).cell() : "-";
                Stats queued = measure(c, "ll", "0", calls, bytes);
                Stats inline = measure(c, "ll", "1", calls, bytes);
                // LL runs only where writes keep 8-byte words whole (shm): elsewhere JCCL_PROTO=ll is refused and both columns are Simple.
                String note = c.provider().equals("shm") ? "" : "  (" + c.provider() + ": LL refused, both LL columns ran Simple)";
                rows.add(String.format(Locale.ROOT, "%-10s %6d %5d | %-38s | %-38s | %-38s | %.2fx%s", c.ranks() + " " + c.provider(), bytes,
                        round, simple, queued.cell(), inline.cell(), queued.medianUs() / inline.medianUs(), note));
                System.out.println(rows.getLast());
            }
        }
        System.out.println("allreduce float32 sum, " + calls + " calls per cell after as many to warm up; rank 0's figures; cores: "
                + Runtime.getRuntime().availableProcessors());
        rows.forEach(System.out::println);
    }

    private static Stats measure(Config c, String proto, String inline, int calls, long bytes) throws Exception {
        var knobs = CommRanks.knobs("JCCL_TRANSPORT", c.provider(), "JCCL_TIMEOUT", "60s", "JCCL_PROTO", proto, "JCCL_INLINE", inline);
        for (String k : new String[] {"JCCL_SPIN", "JCCL_ALGO", "JCCL_DEBUG"}) {
            if (System.getProperty(k) != null) knobs.put(k, System.getProperty(k));
        }
        List<Stats> perRank = CommRanks.run(c.ranks(), knobs, comm -> {
            MemorySegment buf = Arena.ofAuto().allocate(Math.max(bytes, 8), 64);
            long count = Math.max(1, bytes / 4);
            for (int i = 0; i < calls; i++) comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
            comm.barrier().await();
            long[] each = new long[calls];
            long[] inline0 = ((CommunicatorImpl) comm).inlineCounts();
            long b0 = THREADS.getCurrentThreadAllocatedBytes();
            long t0 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                long s = System.nanoTime();
                comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
                each[i] = System.nanoTime() - s;
            }
            double mean = (System.nanoTime() - t0) / 1e3 / calls;
            double perCall = (THREADS.getCurrentThreadAllocatedBytes() - b0) / (double) calls;
            long handedOn = ((CommunicatorImpl) comm).inlineCounts()[1] - inline0[1];
            Arrays.sort(each);
            return new Stats(each[calls / 2] / 1e3, each[(int) (calls * 0.99)] / 1e3, mean, perCall, handedOn / (double) calls);
        });
        return perRank.getFirst();
    }
}
