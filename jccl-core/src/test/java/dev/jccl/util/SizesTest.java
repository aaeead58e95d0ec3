package dev.jccl.util;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Tag("unit")
class SizesTest {
    @Test
    void parsesByteSizesInTheWaysPeopleTypeThem() {
        assertEquals(8, Sizes.parseBytes("8"));
        assertEquals(4096, Sizes.parseBytes("4k"));
        assertEquals(4096, Sizes.parseBytes("4KiB"));
        assertEquals(4096, Sizes.parseBytes("4KB"));
        assertEquals(64L << 20, Sizes.parseBytes("64M"));
        assertEquals(1L << 30, Sizes.parseBytes(" 1G "));
        assertEquals(5, Sizes.parseBytes("5B"));
    }

    @Test
    void refusesNonsenseAndNegativeSizes() {
        assertThrows(IllegalArgumentException.class, () -> Sizes.parseBytes("lots"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parseBytes("-4k"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parseBytes("99999999999T"));
    }

    @Test
    void parsesDurations() {
        assertEquals(500_000_000L, Sizes.parseDurationNs("500"));
        assertEquals(500_000_000L, Sizes.parseDurationNs("500ms"));
        assertEquals(30_000_000_000L, Sizes.parseDurationNs("30s"));
        assertEquals(120_000_000_000L, Sizes.parseDurationNs("2m"));
        assertEquals(7_000, Sizes.parseDurationNs("7us"));
        assertEquals(9, Sizes.parseDurationNs("9ns"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parseDurationNs("soon"));
    }

    @Test
    void formatsBytes() {
        assertEquals("0 B", Sizes.formatBytes(0));
        assertEquals("1.5 KiB", Sizes.formatBytes(1536));
        assertEquals("256 MiB", Sizes.formatBytes(256L << 20));
    }
}
