package dev.jccl.cli.tool;

import dev.jccl.cli.tool.detect.Knee;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The knee rule (the smallest value no larger value beats by more than 5%) on synthetic sweeps. */
@Tag("unit")
class KneeTest {
    private static final double[] QPS = {1, 2, 4, 8, 16};

    @Test
    void saturatingCurveKneesWhereGrowthFallsUnderFivePercent() {
        // 1 -> 2 doubles, 2 -> 4 gains 30%, 4 -> 8 gains 3%, 8 -> 16 gains 1%.
        Knee k = Knee.find(QPS, new double[] {1.0, 2.0, 2.6, 2.68, 2.7}, 0.05);
        assertEquals(2, k.index(), k.reason());
        assertTrue(k.reason().contains("5%"), k.reason());
    }

    @Test
    void oneNoisyDipDoesNotEndTheClimbEarly() {
        // 4 dips below 2, but 8 beats 2 by far: the knee is not at 2.
        Knee k = Knee.find(QPS, new double[] {1.0, 2.0, 1.9, 3.0, 3.05}, 0.05);
        assertEquals(3, k.index(), k.reason());
    }

    @Test
    void flatCurveKneesAtTheFirstValue() {
        assertEquals(0, Knee.find(QPS, new double[] {5, 5.1, 5.0, 4.9, 5.2}, 0.05).index());
    }

    @Test
    void everGrowingCurveKneesAtTheLastValue() {
        Knee k = Knee.find(QPS, new double[] {1, 2, 4, 8, 16}, 0.05);
        assertEquals(4, k.index());
        assertTrue(k.reason().contains("largest"), k.reason());
    }

    @Test
    void fallingCurveKneesAtTheFirstValue() {
        assertEquals(0, Knee.find(QPS, new double[] {4, 3, 2, 1, 0.5}, 0.05).index());
    }

    @Test
    void mismatchedLengthsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Knee.find(QPS, new double[] {1, 2}, 0.05));
    }
}
