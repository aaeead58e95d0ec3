package dev.jccl.algo;

import org.junit.jupiter.api.Tag;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class BlocksAndChannelsTest {
    @Test
    void blocksCoverEveryElementOnceAndDifferByAtMostOneGrain() {
        for (long count = 0; count <= 70; count++) {
            for (int parts = 1; parts <= 9; parts++) {
                for (long grain = 1; grain <= 5; grain++) {
                    Blocks b = new Blocks(count, parts, grain);
                    String what = b.toString();
                    assertEquals(0, b.offset(0), what);
                    assertEquals(count, b.offset(parts), what);
                    long min = Long.MAX_VALUE, max = 0;
                    for (int i = 0; i < parts; i++) {
                        long c = b.count(i);
                        assertTrue(c >= 0, what);
                        boolean tail = b.offset(i + 1) == count && c > 0;
                        if (!tail) assertEquals(0, c % grain, what + " block " + i);
                        if (b.offset(i + 1) < count) { min = Math.min(min, c); max = Math.max(max, c); }
                    }
                    if (max > 0) assertTrue(max - min <= grain, what);
                }
            }
        }
    }

    @Test
    void smallCountsLeaveTheLastChannelsEmpty() {
        assertEquals(new Channels.Slice(0, 1), Channels.slice(2, 4, 0));
        assertEquals(new Channels.Slice(1, 1), Channels.slice(2, 4, 1));
        assertEquals(new Channels.Slice(2, 0), Channels.slice(2, 4, 2));
        assertEquals(new Channels.Slice(2, 0), Channels.slice(2, 4, 3));
        assertEquals(new Channels.Slice(0, 16), Channels.slice(20, 2, 0, 16));
        assertEquals(new Channels.Slice(16, 4), Channels.slice(20, 2, 1, 16));
    }

    @Test
    void badSplitsAreRefusedNamingTheValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Channels.slice(10, 0, 0));
        assertTrue(e.getMessage().contains("channel count 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Channels.slice(10, 2, 2));
        assertTrue(e.getMessage().contains("channel 2 is outside [0, 2)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Channels.slice(10, 2, 0, 0));
    }
}
