package dev.jccl.exec;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("unit")
class FifoAndImmTest {
    @Test
    void fifoHasEightSlotsUnlessAForcedChunkNeedsFewerLargerOnes() {
        assertEquals(new FifoDescriptor(8, 512 << 10), FifoDescriptor.of(4 << 20, 0));
        assertEquals(new FifoDescriptor(2, 2 << 20), FifoDescriptor.of(4 << 20, 2 << 20));
        assertEquals(new FifoDescriptor(4, 1 << 20), FifoDescriptor.of(4 << 20, 1 << 20));
        // Tiny FIFOs round slots up to a cache line; never fewer than two slots.
        assertEquals(new FifoDescriptor(2, 64), FifoDescriptor.of(100, 0));
        // A forced chunk that is no multiple of 64 gets a slot rounded up.
        assertEquals(new FifoDescriptor(5, 100 * 64 + 64), FifoDescriptor.of(32 << 10, 100 * 64 + 1));
    }

    @Test
    void slotsAreUsedRoundRobin() {
        FifoDescriptor f = new FifoDescriptor(4, 128);
        assertEquals(0, f.offsetOf(0));
        assertEquals(3 * 128, f.offsetOf(3));
        assertEquals(128, f.offsetOf(5));
        assertEquals(512, f.totalBytes());
        assertEquals(32, f.maxChunkElems(4));
    }

    @Test
    void fifoRefusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new FifoDescriptor(1, 64));
        assertThrows(IllegalArgumentException.class, () -> new FifoDescriptor(8, 100));
    }

    @Test
    void immediatesTellDataFromCredits() {
        int fp = 0x7ABC_DEF1;
        assertFalse(ImmCodec.isCredit(ImmCodec.data(fp)));
        assertEquals(fp, ImmCodec.payload(ImmCodec.data(fp)));
        assertFalse(ImmCodec.isCredit(ImmCodec.data(0xFFFF_FFFF)), "a fingerprint never sets the credit bit");
        assertTrue(ImmCodec.isCredit(ImmCodec.credit(5)));
        assertEquals(5, ImmCodec.payload(ImmCodec.credit(5)));
        assertThrows(IllegalArgumentException.class, () -> ImmCodec.credit(0));
    }

    @Test
    void chunkIndexInTheImmediateExposesMisplacedChunks() {
        int fp = 0x1234_5678;
        for (long i = 0; i < 64; i++) {
            assertFalse(ImmCodec.isCredit(ImmCodec.data(fp, i)));
            assertEquals(-1, ImmCodec.misplacedIndex(ImmCodec.data(fp, i), fp, i, 16));
            if (i > 0) assertEquals(i - 1, ImmCodec.misplacedIndex(ImmCodec.data(fp, i - 1), fp, i, 16), "a duplicate");
            assertEquals(i + 1, ImmCodec.misplacedIndex(ImmCodec.data(fp, i + 1), fp, i, 16), "a lost or overtaken chunk");
        }
        assertEquals(-1, ImmCodec.misplacedIndex(ImmCodec.data(fp ^ 1, 3), fp, 3, 16), "another operation's chunk");
    }

    @Test
    void creditsAreCumulativeSoDuplicatesFreeNothing() {
        assertEquals(5, ImmCodec.newlyFreed(ImmCodec.credit(5), 0));
        assertEquals(0, ImmCodec.newlyFreed(ImmCodec.credit(5), 5), "a duplicate");
        assertEquals(0, ImmCodec.newlyFreed(ImmCodec.credit(3), 5), "an overtaken one");
        assertEquals(2, ImmCodec.newlyFreed(ImmCodec.credit(1L << 31 | 1), (1L << 31) - 1), "across the 31-bit wrap");
    }

    @Test
    void checksumTrailersFollowTheSlots() {
        FifoDescriptor f = new FifoDescriptor(8, 128).withChecksums(true);
        assertEquals(8 * 128 + 64, f.totalBytes());
        assertEquals(8 * 128 + 4 * 3, f.crcOffsetOf(11));
        assertEquals(8 * 128, new FifoDescriptor(8, 128).totalBytes());
    }
}
