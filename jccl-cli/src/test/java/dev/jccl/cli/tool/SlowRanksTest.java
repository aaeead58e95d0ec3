package dev.jccl.cli.tool;

import dev.jccl.cli.tool.detect.SlowRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Naming the slow rank or link of an all-pairs matrix, and bisecting when the matrix is ambiguous. */
@Tag("unit")
class SlowRanksTest {
    /** n ranks at 10 GB/s, except pairs with {@code slowRank} at 3 and the link {@code a-b} at 2 (-1: none). */
    private static double[][] matrix(int n, int slowRank, int a, int b) {
        double[][] m = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                m[i][j] = i == j ? Double.NaN : 10 + 0.1 * ((i * 7 + j * 3) % 5);
                if (i == slowRank || j == slowRank) m[i][j] = 3;
                if ((i == a && j == b) || (i == b && j == a)) m[i][j] = 2;
            }
        }
        return m;
    }

    @Test
    void theSlowRankAndNoOtherIsNamed() {
        for (int n : new int[] {3, 4, 8}) {
            SlowRanks s = SlowRanks.fromPairs(matrix(n, 2, -1, -1));
            assertEquals(List.of(2), s.ranks(), n + " ranks: " + s.reason());
            assertTrue(s.links().isEmpty());
        }
    }

    @Test
    void aSlowLinkIsNamedAsALinkNotARank() {
        SlowRanks s = SlowRanks.fromPairs(matrix(6, -1, 1, 4));
        assertEquals(List.of(), s.ranks(), s.reason());
        assertEquals(1, s.links().size(), s.reason());
        assertEquals(List.of(1, 4), List.of(s.links().getFirst()[0], s.links().getFirst()[1]));
    }

    @Test
    void aHealthyMatrixNamesNothing() {
        SlowRanks s = SlowRanks.fromPairs(matrix(5, -1, -1, -1));
        assertTrue(s.ranks().isEmpty() && s.links().isEmpty(), s.reason());
    }

    @Test
    void twoRanksLeaveNothingToCompare() {
        SlowRanks s = SlowRanks.fromPairs(matrix(2, 1, -1, -1));
        assertTrue(s.ranks().isEmpty(), s.reason());
        assertTrue(s.reason().contains("nothing to compare"), s.reason());
    }

    @Test
    void bisectionFindsTheSlowRankAmongSuspects() {
        List<List<Integer>> measured = new ArrayList<>();
        SlowRanks s = SlowRanks.bisect(List.of(0, 1, 2, 3, 4, 5), 8, group -> {
            measured.add(group);
            return group.contains(5) ? 1.0 : 4.0;
        });
        assertEquals(List.of(5), s.ranks(), s.reason());
        // Halves of one rank are measured with a rank from outside the suspects.
        assertTrue(measured.stream().allMatch(g -> g.size() >= 2), measured.toString());
    }

    @Test
    void bisectionStopsWhereNeitherHalfIsSlower() {
        SlowRanks s = SlowRanks.bisect(List.of(1, 2), 3, group -> 4.0);
        assertEquals(List.of(1, 2), s.ranks(), s.reason());
    }
}
