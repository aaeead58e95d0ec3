package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A repeated call reuses its prepared run, and that must never read a stale plan or buffer: a loop
 * alternates two buffers and two counts (one on LL, one on Simple under the size rule) in patterns
 * that repeat a shape, change only the buffer, change only the count, and go in place, with new
 * input values every call, so that a run bound to the previous call's memory or count shows as a
 * wrong element.
 */
@Tag("multiprocess")
class PersistentCallTest {
    private static final long SMALL = 5;
    private static final long LARGE = 3001; // 12 KiB of float32: Simple by default
    private static final int CALLS = 400;

    @ParameterizedTest(name = "{0}, {1} ranks")
    @CsvSource({"shm, 2", "shm, 3", "tcp, 2"})
    @Timeout(180)
    void alternatingBuffersAndCountsNeverReadAStalePlan(String provider, int n) throws Exception {
        List<List<String>> wrong = CommRanks.run(n, CommRanks.knobs("JCCL_TRANSPORT", provider), comm -> {
            MemorySegment[] in = {Data.alloc(4 * LARGE), Data.alloc(4 * LARGE)};
            MemorySegment[] out = {Data.alloc(4 * LARGE), Data.alloc(4 * LARGE)};
            List<String> bad = new ArrayList<>();
            for (int call = 0; call < CALLS && bad.size() < 5; call++) {
                // Buffer changes every call, count every other one; every eighth call is in place.
                int b = call % 2;
                long count = call / 2 % 2 == 0 ? SMALL : LARGE;
                boolean inPlace = call % 8 == 7;
                for (long i = 0; i < count; i++) in[b].setAtIndex(ValueLayout.JAVA_FLOAT, i, value(call, comm.rank(), i));
                MemorySegment target = inPlace ? in[b] : out[b];
                if (!inPlace) target.fill((byte) 0x7F); // so that a result left from an earlier call cannot pass
                comm.allReduce(in[b], target, count, DataType.FLOAT32, ReduceOp.SUM).await();
                for (long i = 0; i < count; i++) {
                    float want = 0;
                    for (int r = 0; r < n; r++) want += value(call, r, i);
                    float got = target.getAtIndex(ValueLayout.JAVA_FLOAT, i);
                    if (got != want) {
                        bad.add("rank " + comm.rank() + " call " + call + " (" + count + " elements, buffer " + b + (inPlace ? ", in place" : "")
                                + ") element " + i + ": " + got + ", want " + want);
                        break;
                    }
                }
            }
            return bad;
        });
        for (List<String> w : wrong) assertEquals(List.of(), w);
    }

    /** Small integers, so any summation order is exact. */
    private static float value(int call, int rank, long i) {
        return (call * 7 + rank * 3 + i) % 11 - 5;
    }
}
