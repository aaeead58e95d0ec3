package dev.jccl.algo;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class HostTopologyTest {
    @Test
    void ranksAreGroupedByHostInOrderOfFirstAppearance() {
        HostTopology t = HostTopology.fromHostNames(List.of("b", "a", "b", "c", "a"));
        assertEquals(3, t.hosts());
        assertArrayEquals(new int[] {0, 2, 1, 4, 3}, t.order());
        assertEquals(2, t.position(1));
        assertEquals(1, t.localRank(4));
        assertArrayEquals(new int[] {1, 4}, t.ranksOn(1));
        assertTrue(t.sameHost(1, 4));
        assertFalse(t.isUniform());
        assertEquals("3 hosts with 2,2,1 ranks", t.describe());
        assertEquals(2, t.maxRanksPerHost());
    }

    @Test
    void uniformTopologiesDescribeThemselves() {
        assertEquals("2 hosts x 4 ranks", HostTopology.uniform(2, 4).describe());
        assertEquals("1 host x 1 rank", HostTopology.singleHost(1).describe());
        assertTrue(HostTopology.uniform(3, 2).isUniform());
        assertEquals(HostTopology.of(7, 7, 9, 9), HostTopology.uniform(2, 2));
    }

    @Test
    void emptyTopologiesAreRefused() {
        assertThrows(IllegalArgumentException.class, HostTopology::of);
        assertThrows(IllegalArgumentException.class, () -> HostTopology.uniform(0, 2));
    }
}
