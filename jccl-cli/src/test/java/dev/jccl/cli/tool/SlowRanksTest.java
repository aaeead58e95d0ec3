package dev.jccl.cli.tool;

import dev.jccl.cli.tool.detect.SlowRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    /** 3 hosts x 2 ranks: shm pairs inside a host at 10, tcp pairs at 1, and every pair with a rank of host 2 (ranks 4, 5) at 0.1. */
    private static double[][] clusterWithSlowHost() {
        double[][] m = new double[6][6];
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                m[i][j] = i == j ? Double.NaN : i / 2 == j / 2 ? 10 : i >= 4 || j >= 4 ? 0.1 : 1;
            }
        }
        return m;
    }

    private static final List<String> HOSTS = List.of("h0", "h0", "h1", "h1", "h2", "h2");

    @Test
    void ranksThatAreExactlyOneHostsAreNamedAsThatHost() {
        SlowRanks s = SlowRanks.fromPairs(clusterWithSlowHost());
        assertEquals(List.of(4, 5), s.ranks(), s.reason());
        assertTrue(s.wholeHosts(HOSTS));
        assertEquals("host h2 (ranks 4, 5)", s.named(HOSTS));
        assertEquals("host h2 (rank 2)", new SlowRanks(List.of(2), List.of(), "").named(List.of("h0", "h1", "h2")));
    }

    @Test
    void ranksThatAreNotWholeHostsAreNamedAsRanks() {
        SlowRanks part = new SlowRanks(List.of(4), List.of(), "");
        assertFalse(part.wholeHosts(HOSTS), "rank 5 shares host h2 and is not slow");
        assertEquals("rank(s) [4]", part.named(HOSTS));
        SlowRanks across = new SlowRanks(List.of(3, 4), List.of(), "");
        assertEquals("rank(s) [3, 4]", across.named(HOSTS));
        SlowRanks oneHost = new SlowRanks(List.of(2), List.of(), "");
        assertEquals("rank(s) [2]", oneHost.named(List.of("a", "a", "a")), "in a job on one host a rank is a rank");
        assertEquals("hosts h1 (ranks 2, 3), h2 (ranks 4, 5)", new SlowRanks(List.of(2, 3, 4, 5), List.of(), "").named(HOSTS));
    }
}
