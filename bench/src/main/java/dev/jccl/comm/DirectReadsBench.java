package dev.jccl.comm;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Large allreduce busbw with shared buffers (Communicator.allocate, read in place by the peer) next
 * to private ones and to the copying path (JCCL_DIRECT=0), in one run:
 * {@code bench/run-main.sh dev.jccl.comm.DirectReadsBench [ranks] [iterations] [MiB...]} (default 2 ranks,
 * 8 iterations, 64 128 256 MiB). Threads as ranks over shm, float32 SUM, out of place (nccl-tests'
 * default) and in place (DDP's); median per call. Not a test: nothing is asserted.
 */
public final class DirectReadsBench {
    private record Mode(String name, boolean shared, String direct, boolean inPlace) {}

    private static final List<Mode> MODES = List.of(
            new Mode("private, copying (JCCL_DIRECT=0)", false, "0", false),
            new Mode("private, JCCL_DIRECT=1", false, "1", false),
            new Mode("shared, copying (JCCL_DIRECT=0)", true, "0", false),
            new Mode("shared, direct reads", true, "1", false),
            new Mode("shared in place, copying", true, "0", true),
            new Mode("shared in place, direct reads", true, "1", true));

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int iters = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        long[] mib = args.length > 2 ? Arrays.stream(args, 2, args.length).mapToLong(Long::parseLong).toArray() : new long[] {64, 128, 256};
        double[][] busbw = new double[mib.length][MODES.size()];
        for (int m = 0; m < MODES.size(); m++) {
            Mode mode = MODES.get(m);
            Map<String, String> knobs = CommRanks.knobs("JCCL_TRANSPORT", "shm", "JCCL_TIMEOUT", "120s", "JCCL_DIRECT", mode.direct());
            List<double[]> perRank = CommRanks.run(n, knobs, comm -> measure(comm, mode, mib, iters));
            for (int s = 0; s < mib.length; s++) busbw[s][m] = perRank.getFirst()[s];
        }
        System.out.printf(Locale.ROOT, "allreduce float32 sum, %d ranks over shm, busbw GB/s (median of %d calls; 2(n-1)/n x bytes / time)%n",
                n, iters);
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%8s", "MiB"));
        for (int m = 0; m < MODES.size(); m++) head.append(String.format(Locale.ROOT, "  %2d", m + 1)).append(String.format("%7s", ""));
        head.append("  direct/copying(3)  direct/private(1)  in-place direct/copying");
        System.out.println(head);
        for (int s = 0; s < mib.length; s++) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%8d", mib[s]));
            for (double v : busbw[s]) row.append(String.format(Locale.ROOT, "  %9.2f", v));
            row.append(String.format(Locale.ROOT, "  %17.2fx  %17.2fx  %22.2fx", busbw[s][3] / busbw[s][2], busbw[s][3] / busbw[s][0],
                    busbw[s][5] / busbw[s][4]));
            System.out.println(row);
        }
        for (int m = 0; m < MODES.size(); m++) System.out.printf(Locale.ROOT, "  (%d) %s%n", m + 1, MODES.get(m).name());
    }

    private static double[] measure(Communicator comm, Mode mode, long[] mib, int iters) {
        double[] out = new double[mib.length];
        int n = comm.size();
        try (Arena arena = Arena.ofShared()) {
            long max = Arrays.stream(mib).max().orElse(1) << 20;
            MemorySegment in = mode.shared() ? comm.allocate(max) : arena.allocate(max, 4096);
            MemorySegment res = mode.inPlace() ? in : mode.shared() ? comm.allocate(max) : arena.allocate(max, 4096);
            in.fill((byte) 1);
            for (int s = 0; s < mib.length; s++) {
                long bytes = mib[s] << 20;
                long count = bytes / 4;
                for (int w = 0; w < 3; w++) comm.allReduce(in, res, count, DataType.FLOAT32, ReduceOp.SUM).await();
                comm.barrier().await();
                List<Long> each = new ArrayList<>();
                for (int i = 0; i < iters; i++) {
                    long t = System.nanoTime();
                    comm.allReduce(in, res, count, DataType.FLOAT32, ReduceOp.SUM).await();
                    each.add(System.nanoTime() - t);
                }
                each.sort(null);
                out[s] = bytes * 2.0 * (n - 1) / n / each.get(iters / 2);
            }
        }
        comm.barrier().await();
        return out;
    }
}
