package dev.jccl.testkit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("unit")
class PatternsTest {
    @Test
    @Timeout(10)
    void fillMatchesTheBytewiseDefinitionAtEveryAlignment() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(100);
            for (long first = 0; first < 16; first++) {
                Patterns.fill(seg.asSlice(3, 77), 9, first);
                for (long i = 0; i < 77; i++) {
                    assertEquals(Patterns.byteAt(9, first + i), seg.get(ValueLayout.JAVA_BYTE, 3 + i), "first=" + first + " i=" + i);
                }
            }
        }
    }

    @Test
    @Timeout(10)
    void aSubRangeChecksAgainstItsLogicalPosition() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(3 << 20);
            Patterns.fill(seg, 4);
            assertEquals(-1, Patterns.firstMismatch(seg, 4, 0));
            assertEquals(-1, Patterns.firstMismatch(seg.asSlice(1_000_003), 4, 1_000_003));
            assertEquals(0, Patterns.firstMismatch(seg.asSlice(1_000_003), 4, 1_000_002), "shifted by one byte");
            assertEquals(0, Patterns.firstMismatch(seg, 5, 0), "another seed");
            assertEquals(-1, Patterns.firstMismatch(seg.asSlice(0, 0), 5, 0), "nothing to compare");
        }
    }

    @Test
    @Timeout(10)
    void aSingleFlippedByteIsFoundAndNamed() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate((2 << 20) + 5);
            Patterns.fill(seg, 7);
            long at = (1 << 20) + 3; // in the second comparison chunk
            seg.set(ValueLayout.JAVA_BYTE, at, (byte) ~seg.get(ValueLayout.JAVA_BYTE, at));
            assertEquals(at, Patterns.firstMismatch(seg, 7, 0));
            AssertionError e = assertThrows(AssertionError.class, () -> Patterns.assertPattern("buf", seg, 7, 0));
            assertTrue(e.getMessage().contains("byte " + at + " of " + seg.byteSize()), e.getMessage());
        }
    }

    @Test
    void neighbouringWordsAndSeedsDiffer() {
        assertNotEquals(Patterns.mix(1, 0), Patterns.mix(1, 1));
        assertNotEquals(Patterns.mix(1, 0), Patterns.mix(2, 0));
        assertNotEquals(0, Patterns.mix(0, 0));
    }
}
