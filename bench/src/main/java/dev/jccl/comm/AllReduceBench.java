package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Locale;

/**
 * Threads-as-ranks allReduce timing, for development: {@code bench/run-main.sh dev.jccl.comm.AllReduceBench
 * [ranks] [provider] [bytes...]}. Prints time per call and bus bandwidth (2(n-1)/n x bytes / time).
 * Not a test: no timing is asserted anywhere.
 */
public final class AllReduceBench {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        String provider = args.length > 1 ? args[1] : "shm";
        long[] sizes = args.length > 2 ? java.util.Arrays.stream(args, 2, args.length).mapToLong(Long::parseLong).toArray()
                : new long[] {8, 1 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20};
        java.util.Map<String, String> knobs = CommRanks.knobs("JCCL_TRANSPORT", provider, "JCCL_TIMEOUT", "60s");
        for (String k : new String[] {"JCCL_NCHANNELS", "JCCL_CHUNKSIZE", "JCCL_BUFFSIZE", "JCCL_ALGO"}) {
            if (System.getProperty(k) != null) knobs.put(k, System.getProperty(k));
        }
        List<String> lines = CommRanks.run(n, knobs, comm -> {
            StringBuilder out = new StringBuilder();
            // Two passes: the first only warms the JIT over every path, the second is printed.
            for (int pass = 0; pass < 2; pass++)
            for (long bytes : sizes) {
                long count = bytes / 4;
                MemorySegment buf = Arena.ofAuto().allocate(Math.max(bytes, 1), 64);
                int iters = (int) Math.max(5, Math.min(2000, (256L << 20) / Math.max(bytes, 1) ));
                // Warm up long enough for the JIT to compile the kernels (the Vector API is slow until it
                // has); a count, not a time, since every rank must issue the same calls.
                long warm = Math.clamp((2L << 30) / Math.max(bytes, 1), 50, 5000);
                for (long i = 0; i < warm; i++) comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
                comm.barrier().await();
                long[] each = new long[iters];
                long t0 = System.nanoTime();
                for (int i = 0; i < iters; i++) {
                    long s = System.nanoTime();
                    comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
                    each[i] = System.nanoTime() - s;
                }
                double us = (System.nanoTime() - t0) / 1e3 / iters;
                java.util.Arrays.sort(each);
                double medUs = each[iters / 2] / 1e3;
                double busGBs = bytes * 2.0 * (n - 1) / n / (medUs * 1e3);
                if (pass == 1) out.append(String.format(Locale.ROOT, "%12d B  mean %10.2f us  p10 %10.2f us  median %10.2f us  busbw(median) %7.2f GB/s%n",
                        bytes, us, each[iters / 10] / 1e3, medUs, busGBs));
            }
            return out.toString();
        });
        System.out.print(lines.getFirst());
    }
}
