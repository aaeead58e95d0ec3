package dev.jccl.comm;

import dev.jccl.Communicator;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The Java-array overloads of every collective, for float[], double[], int[] and long[], staged through native memory. */
@Tag("multiprocess")
class ArraysTest {
    @Test
    @Timeout(60)
    void everyCollectiveOnEveryArrayType() throws Exception {
        int n = 3;
        List<List<String>> all = CommRanks.run(n, CommRanks.knobs(), comm -> {
            List<String> bad = new ArrayList<>();
            int r = comm.rank();
            int len = 1009;
            // Values v(rank, i) = rank * 10 + i % 7, exact in every type.
            double sum = 0;
            for (int q = 0; q < n; q++) sum += q * 10;
            floats(comm, bad, len, sum);
            doubles(comm, bad, len);
            ints(comm, bad, len);
            longs(comm, bad, len);
            return bad;
        });
        for (List<String> b : all) assertEquals(List.of(), b);
    }

    private static void floats(Communicator comm, List<String> bad, int len, double rankSum) {
        int n = comm.size();
        int r = comm.rank();
        float[] a = new float[len];
        for (int i = 0; i < len; i++) a[i] = r * 10 + i % 7;
        float[] out = new float[len];
        comm.allReduce(a, out, ReduceOp.SUM).await();
        for (int i = 0; i < len; i++) if (out[i] != (float) (rankSum + n * (i % 7))) { bad.add("float allReduce " + i + ": " + out[i]); break; }
        comm.allReduce(a, ReduceOp.MAX).await();
        for (int i = 0; i < len; i++) if (a[i] != (n - 1) * 10 + i % 7) { bad.add("float allReduce in place " + i + ": " + a[i]); break; }
        float[] gathered = new float[len * n];
        float[] mine = new float[len];
        Arrays.fill(mine, r + 0.5f);
        comm.allGather(mine, gathered).await();
        for (int q = 0; q < n; q++) if (gathered[q * len + 3] != q + 0.5f) bad.add("float allGather block " + q + ": " + gathered[q * len + 3]);
        float[] scattered = new float[len];
        comm.reduceScatter(gathered, scattered, ReduceOp.SUM).await();
        if (scattered[5] != n * (r + 0.5f)) bad.add("float reduceScatter: " + scattered[5]);
    }

    private static void doubles(Communicator comm, List<String> bad, int len) {
        int r = comm.rank();
        double[] a = new double[len];
        if (r == 1) for (int i = 0; i < len; i++) a[i] = i * 0.25;
        comm.broadcast(a, 1).await();
        for (int i = 0; i < len; i++) if (a[i] != i * 0.25) { bad.add("double broadcast " + i + ": " + a[i]); break; }
        double[] out = r == 2 ? new double[len] : null;
        comm.reduce(a, out, ReduceOp.SUM, 2).await();
        if (r == 2 && out[8] != comm.size() * 2.0) bad.add("double reduce: " + out[8]);
    }

    private static void ints(Communicator comm, List<String> bad, int len) {
        int n = comm.size();
        int r = comm.rank();
        int[] in = new int[n * 5];
        for (int i = 0; i < in.length; i++) in[i] = r * 100 + i;
        int[] out = new int[n * 5];
        comm.allToAll(in, out).await();
        for (int q = 0; q < n; q++) if (out[q * 5 + 1] != q * 100 + r * 5 + 1) bad.add("int allToAll block " + q + ": " + out[q * 5 + 1]);
        comm.allToAll(in, in).await(); // same array: staged separately, so in place works too
        if (!Arrays.equals(in, out)) bad.add("int allToAll in place differs from out of place");
    }

    private static void longs(Communicator comm, List<String> bad, int len) {
        int r = comm.rank();
        long[] data = new long[len];
        int next = (r + 1) % comm.size();
        int prev = (r + comm.size() - 1) % comm.size();
        for (int i = 0; i < len; i++) data[i] = (long) r << 40 | i;
        long[] got = new long[len];
        if (r % 2 == 0) {
            comm.send(data, next);
            comm.recv(got, prev).await();
        } else {
            comm.recv(got, prev);
            comm.send(data, next).await();
        }
        for (int i = 0; i < len; i++) if (got[i] != ((long) prev << 40 | i)) { bad.add("long recv " + i + ": " + got[i]); break; }
    }
}
