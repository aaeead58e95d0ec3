package dev.jccl.algo;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every algorithm of every collective, step by step, against the reference: rank counts 1..9 and
 * 16, counts 0, 1, 7, n-1, n+1 and a prime, 1..4 channels, in and out of place, over one host and
 * over several, in long arithmetic (exact) and in double arithmetic (exact only if the reduction
 * order is the documented one).
 */
@Tag("slow")
class AlgorithmMatrixTest {
    @ParameterizedTest(name = "{0} {1} n={2}")
    @MethodSource("dev.jccl.algo.Matrix#combos")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyRankGetsTheReferenceResult(Collective collective, Algorithm algorithm, int n) {
        for (HostTopology topology : Matrix.topologies(n, algorithm)) {
            for (long count : Matrix.counts(n)) {
                for (CollectiveArgs args : Matrix.args(collective, n, count)) {
                    for (int channels = 1; channels <= 4; channels++) {
                        for (boolean inPlace : Matrix.placements(collective)) {
                            Harness.Case c = Harness.Case.of(algorithm, args, topology, channels, inPlace);
                            Harness.run(c, Arith.LONG_SUM, Harness.steps());
                            Harness.run(c, Arith.DOUBLE_SUM, Harness.steps());
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} {1} n={2}")
    @MethodSource("dev.jccl.algo.Matrix#combos")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void channelSlicesMayBeCutOnAGrain(Collective collective, Algorithm algorithm, int n) {
        HostTopology topology = Matrix.topologies(n, algorithm).getLast();
        for (long count : new long[] {5, 61, 130}) {
            for (CollectiveArgs args : Matrix.args(collective, n, count)) {
                Harness.Case c = new Harness.Case(algorithm, args, topology, 3, 8, false);
                Harness.run(c, Arith.DOUBLE_SUM, Harness.steps());
            }
        }
    }
}
