package dev.jccl.algo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every allreduce with a reduction that does not commute ({@link Arith#LONG_ORDERED}): each rank's
 * OUTPUT must equal the reference, operand order included, so every rank holds the same bits even
 * where several ranks compute the result themselves (recursive doubling).
 */
@Tag("unit")
class OperandOrderTest {
    static List<Algorithm> allReduces() {
        return Algorithm.implementing(Collective.ALL_REDUCE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allReduces")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyRankAppliesTheDocumentedOperandOrder(Algorithm algorithm) {
        for (int n = 1; n <= 9; n++) {
            for (HostTopology topology : Matrix.topologies(n, algorithm)) {
                for (long count : Matrix.counts(n)) {
                    for (boolean inPlace : new boolean[] {false, true}) {
                        Harness.Case c = Harness.Case.of(algorithm, CollectiveArgs.of(Collective.ALL_REDUCE, count), topology, 2, inPlace);
                        Harness.run(c, Arith.LONG_ORDERED, Harness.steps());
                        Harness.run(c, Arith.LONG_ORDERED, Harness.chunks(3, 2, count * 31 + n));
                    }
                }
            }
        }
    }

    /** Without the incoming-first receives the partners of an exchange compute A (+) B and B (+) A. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void recursiveDoublingNeedsItsCanonicalOperandOrder() {
        for (int n : new int[] {2, 3, 4, 7, 8}) {
            Harness.Case c = Harness.Case.of(Algorithm.RECURSIVE_DOUBLING, CollectiveArgs.of(Collective.ALL_REDUCE, 13),
                    HostTopology.singleHost(n), 1, false);
            AssertionError e = assertThrows(AssertionError.class,
                    () -> Harness.run(c, Arith.LONG_ORDERED, Harness.steps(), OperandOrderTest::localOperandFirst), "n=" + n);
            assertTrue(e.getMessage().contains("OUTPUT of rank"), e.getMessage());
        }
    }

    private static List<RankSchedule> localOperandFirst(List<RankSchedule> schedules) {
        List<RankSchedule> out = new ArrayList<>();
        for (RankSchedule s : schedules) {
            List<Step> steps = new ArrayList<>();
            for (Step step : s.steps()) {
                Recv r = step.recv();
                Recv plain = r == null || !r.incomingFirst() ? r : Recv.reduce(r.peer(), r.into(), r.operand());
                steps.add(new Step(step.send(), step.copy(), plain));
            }
            out.add(new RankSchedule(s.collective(), s.algorithm(), s.rank(), s.nranks(), s.inputElems(), s.outputElems(),
                    s.scratchElems(), steps));
        }
        return out;
    }
}
