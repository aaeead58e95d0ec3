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
}
