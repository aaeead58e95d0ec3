package dev.jccl.algo;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every schedule executed chunk by chunk in random orders that obey only the documented rules,
 * with FIFOs of one to three slots: the results must still match the reference bit for bit, no
 * order may deadlock, and no rank may finish before it could have heard from every rank its output
 * depends on (for the barrier, from every rank).
 */
@Tag("slow")
class ChunkPipelineTest {
    @ParameterizedTest(name = "{0} {1} n={2}")
    @MethodSource("dev.jccl.algo.Matrix#combos")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void randomChunkOrdersGiveTheReferenceResult(Collective collective, Algorithm algorithm, int n) {
        SplittableRandom pick = new SplittableRandom(collective.ordinal() * 1000L + algorithm.ordinal() * 100L + n);
        // 23 is not a multiple of the chunk sizes 2, 3 and 4 below; 1 gives one element per chunk.
        for (long count : new long[] {0, 1, 7, n + 1, 23}) {
            for (HostTopology topology : Matrix.topologies(n, algorithm)) {
                for (CollectiveArgs args : Matrix.args(collective, n, count)) {
                    for (int trial = 0; trial < 3; trial++) {
                        long chunkElems = 1 + pick.nextInt(4);
                        int slots = 1 + pick.nextInt(3);
                        int channels = 1 + pick.nextInt(4);
                        boolean inPlace = Matrix.placements(collective).size() > 1 && pick.nextBoolean();
                        Harness.Case c = Harness.Case.of(algorithm, args, topology, channels, inPlace);
                        Harness.Outcome o = Harness.run(c, Arith.DOUBLE_SUM, Harness.chunks(chunkElems, slots, pick.nextLong()));
                        checkKnowledge(c, o.knowledge());
                    }
                }
            }
        }
    }

    /** Which ranks each rank must have heard from when it finishes. */
    private static void checkKnowledge(Harness.Case c, long[] knowledge) {
        int n = c.topology().nranks();
        long all = n == 64 ? -1L : (1L << n) - 1;
        Collective col = c.args().collective();
        if (c.args().count() == 0 && col != Collective.BARRIER) return;
        for (int r = 0; r < n; r++) {
            long need = switch (col) {
                case BARRIER, ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL -> all;
                case BROADCAST -> 1L << c.args().root() | 1L << r;
                case REDUCE -> r == c.args().root() ? all : 1L << r;
            };
            assertEquals(Long.toBinaryString(need), Long.toBinaryString(knowledge[r] & need),
                    c + ": rank " + r + " finished before hearing from ranks it depends on");
        }
    }
}
