package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recursive doubling computes the final sum on every rank instead of copying one rank's result, so
 * this checks that every rank holds the same bits: float32 SUM over random values (whose sum
 * depends on the order of additions) and NaNs whose payloads differ from rank to rank, with chunks
 * of 64 bytes and a 4-slot FIFO so that each exchange is many chunks and the partial being sent
 * must not be overwritten by the reduction arriving into the same span. NaN results must be NaN.
 *
 * <p>The kernels write every NaN as the canonical one and IEEE sums of two operands commute, so
 * with today's kernels this cannot tell the operand order apart; the simulated
 * {@code dev.jccl.algo.OperandOrderTest}, with a reduction that does not commute, does.
 */
@Tag("multiprocess")
class BitIdenticalResultsTest {
    private static final long[] COUNTS = {0, 1, 7, 97, 1009};

    @ParameterizedTest(name = "{0} over {1} x {2} ranks")
    @CsvSource({
            "recursive_doubling, shm, 1",
            "recursive_doubling, shm, 2",
            "recursive_doubling, shm, 3",
            "recursive_doubling, shm, 4",
            "recursive_doubling, shm, 5",
            "recursive_doubling, shm, 6",
            "recursive_doubling, shm, 7",
            "recursive_doubling, shm, 8",
            "recursive_doubling, tcp, 2",
            "recursive_doubling, tcp, 3",
            "recursive_doubling, tcp, 5",
            "recursive_doubling, tcp, 8",
            "halving_doubling,   shm, 5",
            "ring,               tcp, 3",
    })
    @Timeout(120)
    void everyRankHoldsTheSameBitsWithNanPayloads(String algo, String provider, int n) throws Exception {
        List<List<int[]>> results = CommRanks.run(n, CommRanks.knobs("JCCL_TRANSPORT", provider, "JCCL_ALGO", algo,
                "JCCL_CHUNKSIZE", "64", "JCCL_BUFFSIZE", "256"), comm -> {
            List<int[]> out = new ArrayList<>();
            for (long count : COUNTS) {
                for (boolean inPlace : new boolean[] {false, true}) {
                    MemorySegment in = input(count, comm.rank(), n);
                    MemorySegment result = inPlace ? in : Data.alloc(4 * count);
                    comm.allReduce(in, result, count, DataType.FLOAT32, ReduceOp.SUM).await();
                    out.add(result.asSlice(0, 4 * count).toArray(ValueLayout.JAVA_INT));
                }
            }
            return out;
        });
        for (int r = 1; r < n; r++) {
            for (int call = 0; call < results.get(0).size(); call++) {
                int[] want = results.get(0).get(call);
                int[] got = results.get(r).get(call);
                for (int i = 0; i < want.length; i++) {
                    assertEquals(want[i], got[i], "call " + call + " element " + i + ": rank " + r + " holds "
                            + Integer.toHexString(got[i]) + ", rank 0 " + Integer.toHexString(want[i]));
                }
            }
        }
        int call = 0;
        for (long count : COUNTS) {
            for (int twice = 0; twice < 2; twice++, call++) {
                int[] bits = results.get(0).get(call);
                for (int i = 0; i < count; i++) {
                    boolean anyNan = false;
                    for (int r = 0; r < n; r++) anyNan |= Float.isNaN(Float.intBitsToFloat(bits(i, r, n)));
                    assertEquals(anyNan, Float.isNaN(Float.intBitsToFloat(bits[i])), "element " + i + " of " + count);
                }
            }
        }
        assertTrue(call > 0);
    }

    /**
     * Rank r's element i: every third element a quiet NaN whose payload names rank and element (the
     * sign bit set on odd ranks), one in three others a NaN on a single rank, the rest random.
     */
    private static int bits(int i, int rank, int n) {
        if (i % 3 == 0) return (rank % 2 == 1 ? 0xFFC00000 : 0x7FC00000) | (rank + 1) << 12 | (i & 0xFFF);
        if (i % 3 == 1 && i / 3 % n == rank) return 0x7FC00000 | 0x5A5A0 | rank;
        Random random = new Random(i * 31L + rank);
        return Float.floatToRawIntBits(random.nextFloat() * 2 - 1);
    }

    private static MemorySegment input(long count, int rank, int n) {
        MemorySegment s = Data.alloc(4 * count);
        for (int i = 0; i < count; i++) s.setAtIndex(ValueLayout.JAVA_INT, i, bits(i, rank, n));
        return s;
    }
}
