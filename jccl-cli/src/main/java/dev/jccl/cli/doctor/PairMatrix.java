package dev.jccl.cli.doctor;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.cli.tool.ToolJob;
import dev.jccl.cli.tool.detect.SlowRanks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * All-pairs bandwidth and latency, one pair at a time as pairwise nccl-tests runs do, so a pair is
 * measured on an otherwise idle job: the lower rank sends {@code bytes}, the higher sends them back
 * (never both at once, so a send larger than the FIFO cannot wait on a receive queued behind the
 * peer's own send); latency is an 8-byte ping-pong. Every rank ends with the whole matrix.
 */
final class PairMatrix {
    record Result(double[][] gbps, double[][] latencyUs) {}

    static final int ROUNDS = 4;
    static final int WARMUP = 2;
    static final int PINGS = 50;
    static final long WARMUP_NS = 1_000_000_000L;

    private PairMatrix() {}

    static Result measure(ToolJob job, Communicator comm, long bytes) {
        int n = comm.size();
        int me = comm.rank();
        double[] mineBw = new double[n];
        double[] mineLat = new double[n];
        try (Arena arena = Arena.ofShared()) {
            MemorySegment buf = arena.allocate(Math.max(8, bytes), 64);
            MemorySegment ping = arena.allocate(8, 8);
            jitWarmup(comm, buf, ping);
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    if (me == i || me == j) {
                        int peer = me == i ? j : i;
                        boolean first = me == i;
                        for (int w = 0; w < WARMUP; w++) exchange(comm, buf, bytes, peer, first);
                        long t0 = System.nanoTime();
                        for (int k = 0; k < ROUNDS; k++) exchange(comm, buf, bytes, peer, first);
                        double s = (System.nanoTime() - t0) / 1e9;
                        for (int w = 0; w < 5; w++) exchange(comm, ping, 8, peer, first);
                        long l0 = System.nanoTime();
                        for (int k = 0; k < PINGS; k++) exchange(comm, ping, 8, peer, first);
                        double lat = (System.nanoTime() - l0) / 1e3 / PINGS / 2;
                        if (first) {
                            mineBw[j] = 2.0 * ROUNDS * bytes / s / 1e9;
                            mineLat[j] = lat;
                        }
                    }
                    comm.barrier().await();
                }
            }
        }
        List<String> rows = job.gather("doctor-pairs", encode(mineBw) + ";" + encode(mineLat));
        double[][] bw = new double[n][n];
        double[][] lat = new double[n][n];
        for (int i = 0; i < n; i++) {
            String[] parts = rows.get(i).split(";");
            double[] b = decode(parts[0]);
            double[] l = decode(parts[1]);
            bw[i][i] = Double.NaN;
            lat[i][i] = Double.NaN;
            for (int j = i + 1; j < n; j++) {
                bw[i][j] = bw[j][i] = b[j];
                lat[i][j] = lat[j][i] = l[j];
            }
        }
        return new Result(bw, lat);
    }

    /**
     * Ring exchanges (each rank with its neighbours, small and large) for about a second, agreed by a
     * barrier: the first pair would otherwise be timed while the JIT still compiles the send path.
     */
    private static void jitWarmup(Communicator comm, MemorySegment buf, MemorySegment ping) {
        int n = comm.size();
        if (n < 2) return;
        long end = System.nanoTime() + WARMUP_NS;
        MemorySegment flag = ping;
        while (true) {
            for (int step = 0; step < 20; step++) {
                for (int i = 0; i + 1 < n; i += 1) {
                    if (comm.rank() == i || comm.rank() == i + 1) {
                        exchange(comm, step % 4 == 0 ? buf.asSlice(0, Math.min(buf.byteSize(), 1 << 20)) : ping,
                                step % 4 == 0 ? Math.min(buf.byteSize(), 1 << 20) : 8, comm.rank() == i ? i + 1 : i, comm.rank() == i);
                    }
                }
            }
            flag.set(ValueLayout.JAVA_LONG, 0, System.nanoTime() >= end ? 1 : 0);
            comm.allReduce(flag, 1, DataType.INT64, ReduceOp.MAX).await();
            if (flag.get(ValueLayout.JAVA_LONG, 0) != 0) return;
        }
    }

    /** One round trip of {@code bytes}: the lower rank sends first and receives second; the peer the other way round. */
    private static void exchange(Communicator comm, MemorySegment buf, long bytes, int peer, boolean first) {
        long count = Math.max(1, bytes / 4);
        if (first) {
            comm.send(buf, count, DataType.FLOAT32, peer).await();
            comm.recv(buf, count, DataType.FLOAT32, peer).await();
        } else {
            comm.recv(buf, count, DataType.FLOAT32, peer).await();
            comm.send(buf, count, DataType.FLOAT32, peer).await();
        }
    }

    /**
     * Busbw of an allreduce among {@code group} only (the others wait), agreed by every rank: what
     * {@link SlowRanks#bisect} measures when the matrix alone is ambiguous.
     */
    static double groupBusBw(Communicator world, List<Integer> group, long bytes) {
        boolean in = group.contains(world.rank());
        Communicator sub = world.split(in ? 0 : Communicator.SPLIT_NONE, world.rank());
        double bw = 0;
        try (Arena arena = Arena.ofShared()) {
            if (sub != null) {
                try (sub) {
                    MemorySegment buf = arena.allocate(Math.max(8, bytes), 64);
                    long count = Math.max(1, bytes / 4);
                    sub.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
                    long t0 = System.nanoTime();
                    for (int k = 0; k < ROUNDS; k++) sub.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
                    double s = (System.nanoTime() - t0) / 1e9;
                    int m = sub.size();
                    bw = ROUNDS * (double) bytes / s / 1e9 * 2.0 * (m - 1) / m;
                }
            }
            MemorySegment agreed = arena.allocate(8, 8);
            agreed.set(ValueLayout.JAVA_DOUBLE, 0, in && world.rank() == group.getFirst() ? bw : 0);
            world.allReduce(agreed, 1, DataType.FLOAT64, ReduceOp.MAX).await();
            return agreed.get(ValueLayout.JAVA_DOUBLE, 0);
        }
    }

    private static String encode(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double d : v) b.append(b.isEmpty() ? "" : ",").append(d);
        return b.toString();
    }

    private static double[] decode(String s) {
        return java.util.Arrays.stream(s.split(",")).mapToDouble(Double::parseDouble).toArray();
    }
}
