package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.Work;
import dev.jccl.algo.Protocol;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The LL protocol gives the reference's bits: every type and operator, counts around the protocol
 * threshold and LL's largest message (0, 1, primes, threshold - 1, threshold, threshold + 1 in
 * elements of the type, up to 64 KiB), in place and not, over recursive doubling and tree, with
 * JCCL_PROTO forced both ways and left to the size rule. Inputs are small integers, so every
 * summation order gives the same bits and every rank must match the scalar reference exactly.
 * Each call's flight-recorder entry says which protocol ran it, and that must be the one the rule
 * picks: LL up to {@link Protocol#LL_MAX_BYTES} when forced, up to the threshold by default, and
 * never over tcp, whose writes may land a line's flag before its data (CommFactory).
 */
@Tag("multiprocess")
class LlProtocolTest {
    @ParameterizedTest(name = "{0}, {1} ranks, {2}, JCCL_PROTO={3}")
    @CsvSource({
            "shm, 2, recursive_doubling, ll",
            "shm, 3, recursive_doubling, ll",
            "shm, 4, recursive_doubling, ll",
            "shm, 3, tree,               ll",
            "shm, 4, tree,               ll",
            "tcp, 2, recursive_doubling, ll",
            "tcp, 3, tree,               ll",
            "tcp, 4, recursive_doubling, ll",
            "shm, 3, recursive_doubling, simple",
            "tcp, 2, tree,               simple",
            "shm, 4, tree,               auto",
            "tcp, 3, recursive_doubling, auto",
    })
    @Timeout(300)
    void matchesTheReferenceBitForBit(String provider, int n, String algo, String proto) throws Exception {
        List<List<String>> wrong = CommRanks.run(n, CommRanks.knobs("JCCL_TRANSPORT", provider, "JCCL_ALGO", algo, "JCCL_PROTO", proto),
                comm -> {
                    List<String> bad = new ArrayList<>();
                    int salt = 0;
                    for (DataType t : DataType.values()) {
                        for (ReduceOp op : ReduceOp.values()) {
                            for (long count : counts(t, op)) {
                                boolean inPlace = salt % 2 == 1;
                                MemorySegment[] inputs = new MemorySegment[n];
                                for (int r = 0; r < n; r++) inputs[r] = Data.exactInput(t, count, r, salt, op);
                                MemorySegment in = Data.exactInput(t, count, comm.rank(), salt, op);
                                MemorySegment out = inPlace ? in : Data.alloc(t.bytes(count));
                                Work w = comm.allReduce(in, out, count, t, op);
                                w.await();
                                String call = count + " x " + t + " " + op + (inPlace ? " in place" : "");
                                long diff = Data.firstDifference(out, Data.reduce(t, op, inputs, 0, count), t.bytes(count));
                                if (diff >= 0) bad.add("rank " + comm.rank() + ", " + call + ": byte " + diff + " differs");
                                boolean ll = entry((CommunicatorImpl) comm, w.seq()).lowLatency;
                                if (ll != expectLl(provider, proto, t.bytes(count))) bad.add("rank " + comm.rank() + ", " + call + ": LL " + ll);
                                salt++;
                            }
                        }
                    }
                    return bad;
                });
        for (List<String> w : wrong) assertEquals(List.of(), w);
    }

    /**
     * Across hosts every rank stays on Simple: a rank whose peers all share its host must not choose
     * LL while a rank with a peer on the other host chooses Simple (the tree of 4 ranks over two hosts
     * gives both kinds of rank), or the two would wait for each other on different lanes.
     */
    @ParameterizedTest(name = "two hosts, {0}, JCCL_PROTO=ll")
    @ValueSource(strings = {"tree", "recursive_doubling"})
    @Timeout(120)
    void acrossHostsEveryRankStaysOnSimple(String algo) throws Exception {
        List<List<String>> wrong = CommRanks.run(4, r -> CommRanks.knobs("JCCL_HOST_ID", r < 2 ? "hostA" : "hostB", "JCCL_ALGO", algo,
                "JCCL_PROTO", "ll", "JCCL_TIMEOUT", "20s"), comm -> {
                    List<String> bad = new ArrayList<>();
                    for (int salt = 0; salt < 20; salt++) {
                        long count = 1 + salt;
                        MemorySegment[] inputs = new MemorySegment[4];
                        for (int r = 0; r < 4; r++) inputs[r] = Data.exactInput(DataType.FLOAT32, count, r, salt, ReduceOp.SUM);
                        MemorySegment in = Data.exactInput(DataType.FLOAT32, count, comm.rank(), salt, ReduceOp.SUM);
                        MemorySegment out = Data.alloc(DataType.FLOAT32.bytes(count));
                        Work w = comm.allReduce(in, out, count, DataType.FLOAT32, ReduceOp.SUM);
                        w.await();
                        long diff = Data.firstDifference(out, Data.reduce(DataType.FLOAT32, ReduceOp.SUM, inputs, 0, count), out.byteSize());
                        if (diff >= 0) bad.add("rank " + comm.rank() + ", count " + count + ": byte " + diff + " differs");
                        if (entry((CommunicatorImpl) comm, w.seq()).lowLatency) bad.add("rank " + comm.rank() + ", count " + count + ": LL");
                    }
                    return bad;
                });
        for (List<String> w : wrong) assertEquals(List.of(), w);
    }

    /** Counts around the threshold and LL's limit; 64 KiB (Simple whatever is forced) once per type. */
    static long[] counts(DataType t, ReduceOp op) {
        int eb = t.byteSize();
        long th = Protocol.DEFAULT_LL_THRESHOLD_BYTES / eb;
        long max = Protocol.LL_MAX_BYTES / eb;
        return op == ReduceOp.SUM ? new long[] {0, 1, 7, 97, th - 1, th, th + 1, max, max + 1, (64 << 10) / eb}
                : new long[] {1, 13, th - 1, th + 1, max};
    }

    static boolean expectLl(String provider, String proto, long bytes) {
        return bytes > 0 && provider.equals("shm") && switch (proto) {
            case "ll" -> bytes <= Protocol.LL_MAX_BYTES;
            case "simple" -> false;
            default -> bytes <= Protocol.DEFAULT_LL_THRESHOLD_BYTES;
        };
    }

    static FlightRecorder.Entry entry(CommunicatorImpl comm, long seq) {
        for (FlightRecorder.Entry e : comm.recorder().entries()) if (e.op().opSeq() == seq) return e;
        throw new AssertionError("seq " + seq + " is not in the flight recorder");
    }
}
