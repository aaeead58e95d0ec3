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
 * {@code bench/run-main.sh dev.jccl.comm.DirectReadsBench [ranks] [rounds] [iterations] [MiB...]}
 * (default 2 ranks, 3 rounds of 4 calls per buffer kind, 64 128 256 MiB). Threads as ranks over shm,
 * float32 SUM, out of place (nccl-tests' default) and in place (DDP's). Each round runs one
 * communicator with JCCL_DIRECT=1 and one with 0; within a communicator the buffer kinds take turns
 * call by call, so a loaded machine slows them alike. Median per call over all rounds. Not a test:
 * nothing is asserted.
 */
public final class DirectReadsBench {
    /** Buffer kinds measured on each communicator, in turn. */
    private enum Kind { PRIVATE, SHARED, SHARED_IN_PLACE }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int iters = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        long[] mib = args.length > 3 ? Arrays.stream(args, 3, args.length).mapToLong(Long::parseLong).toArray() : new long[] {64, 128, 256};
        // times[direct][size][kind]: every call's nanoseconds, rank 0's view
        List<List<List<List<Long>>>> times = new ArrayList<>();
        for (int d = 0; d < 2; d++) {
            List<List<List<Long>>> bySize = new ArrayList<>();
            for (long ignored : mib) {
                List<List<Long>> byKind = new ArrayList<>();
                for (Kind ignoredKind : Kind.values()) byKind.add(new ArrayList<>());
                bySize.add(byKind);
            }
            times.add(bySize);
        }
        for (int round = 0; round < rounds; round++) {
            for (int d = 1; d >= 0; d--) {
                Map<String, String> knobs = CommRanks.knobs("JCCL_TRANSPORT", "shm", "JCCL_TIMEOUT", "120s", "JCCL_DIRECT", Integer.toString(d));
                List<long[][][]> perRank = CommRanks.run(n, knobs, comm -> measure(comm, mib, iters));
                long[][][] mine = perRank.getFirst();
                for (int s = 0; s < mib.length; s++) {
                    for (Kind k : Kind.values()) for (long t : mine[s][k.ordinal()]) times.get(d).get(s).get(k.ordinal()).add(t);
                }
            }
        }
        System.out.printf(Locale.ROOT, "allreduce float32 sum, %d ranks over shm (threads as ranks), busbw GB/s = 2(n-1)/n x bytes / median time"
                + " of %d calls each%n", n, rounds * iters);
        System.out.printf(Locale.ROOT, "%6s %16s %16s %16s %16s %16s %14s %14s %14s%n", "MiB", "private(copying)", "private,DIRECT=1",
                "shared,DIRECT=0", "shared,direct", "in-place,direct", "direct/shared0", "direct/private", "inplace/copying");
        for (int s = 0; s < mib.length; s++) {
            long bytes = mib[s] << 20;
            double privCopy = busbw(times.get(0).get(s).get(Kind.PRIVATE.ordinal()), bytes, n);
            double priv = busbw(times.get(1).get(s).get(Kind.PRIVATE.ordinal()), bytes, n);
            double sharedCopy = busbw(times.get(0).get(s).get(Kind.SHARED.ordinal()), bytes, n);
            double direct = busbw(times.get(1).get(s).get(Kind.SHARED.ordinal()), bytes, n);
            double inPlaceCopy = busbw(times.get(0).get(s).get(Kind.SHARED_IN_PLACE.ordinal()), bytes, n);
            double inPlace = busbw(times.get(1).get(s).get(Kind.SHARED_IN_PLACE.ordinal()), bytes, n);
            System.out.printf(Locale.ROOT, "%6d %16.2f %16.2f %16.2f %16.2f %16.2f %13.2fx %13.2fx %13.2fx%n", mib[s], privCopy, priv, sharedCopy,
                    direct, inPlace, direct / sharedCopy, direct / privCopy, inPlace / inPlaceCopy);
        }
        System.out.println("(private: Arena memory, always copied; shared: Communicator.allocate; in place: allReduce(buf, ...), whose"
                + " reduce-scatter half is copied because the all-gather overwrites it)");
    }

    private static double busbw(List<Long> nanos, long bytes, int n) {
        List<Long> sorted = new ArrayList<>(nanos);
        sorted.sort(null);
        return bytes * 2.0 * (n - 1) / n / sorted.get(sorted.size() / 2);
    }

    /** [size][kind][call]: nanoseconds of each call, the kinds taking turns. */
    private static long[][][] measure(Communicator comm, long[] mib, int iters) {
        Kind[] kinds = Kind.values();
        long[][][] out = new long[mib.length][kinds.length][iters];
        try (Arena arena = Arena.ofShared()) {
            long max = Arrays.stream(mib).max().orElse(1) << 20;
            MemorySegment[] in = {arena.allocate(max, 4096), comm.allocate(max), comm.allocate(max)};
            MemorySegment[] res = {arena.allocate(max, 4096), comm.allocate(max), in[2]};
            for (MemorySegment s : in) s.fill((byte) 1);
            for (int s = 0; s < mib.length; s++) {
                long count = (mib[s] << 20) / 4;
                for (int w = 0; w < 2; w++) for (int k = 0; k < kinds.length; k++) call(comm, in[k], res[k], count);
                comm.barrier().await();
                for (int i = 0; i < iters; i++) {
                    for (int k = 0; k < kinds.length; k++) {
                        long t = System.nanoTime();
                        call(comm, in[k], res[k], count);
                        out[s][k][i] = System.nanoTime() - t;
                    }
                }
            }
        }
        comm.barrier().await();
        return out;
    }

    private static void call(Communicator comm, MemorySegment in, MemorySegment out, long count) {
        comm.allReduce(in, out, count, DataType.FLOAT32, ReduceOp.SUM).await();
    }
}
