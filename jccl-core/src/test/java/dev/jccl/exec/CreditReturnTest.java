package dev.jccl.exec;

import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.SendWr;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a link's owed credits go alone and when they ride with its next chunk ({@link CreditReturn}). */
@Tag("unit")
class CreditReturnTest {
    private static final int SLOTS = 8;
    private final ArrivalRing arrivals = new ArrivalRing(SLOTS);
    private final SendWindow window = new SendWindow(SLOTS, 2 * SLOTS + 2, 1);

    @Test
    void nothingOwedSendsNothing() {
        CreditReturn c = new CreditReturn(arrivals, window, SLOTS, true);
        assertFalse(c.dueAlone(true));
        assertFalse(c.rideWithChunk());
    }

    @Test
    void aloneOnlyAtHalfTheFifoUnlessForced() {
        CreditReturn c = new CreditReturn(arrivals, window, SLOTS, false);
        applyChunks(3);
        assertFalse(c.dueAlone(false), "3 of 8 slots owed: the peer still has more than half its credits");
        assertTrue(c.dueAlone(true));
        applyChunks(1);
        assertTrue(c.dueAlone(false), "half the FIFO owed");
        assertFalse(c.rideWithChunk(), "a provider that does not coalesce list posts sends credits alone");
    }

    @Test
    void oneOwedCreditRidesWithTheNextChunkAndCarriesTheRunningTotal() {
        CreditReturn c = new CreditReturn(arrivals, window, SLOTS, true);
        applyChunks(1);
        assertTrue(c.rideWithChunk());
        SendWr wr = c.message(new RemoteBuffer(0x1000, 1 << 20, 42));
        assertEquals(ImmCodec.credit(1), wr.imm());
        assertEquals(0, wr.length());
        c.posted();
        assertFalse(c.rideWithChunk(), "returned already");
        applyChunks(2);
        assertEquals(ImmCodec.credit(3), c.message(new RemoteBuffer(0x1000, 1 << 20, 42)).imm(), "a running total, not a count");
    }

    private void applyChunks(int n) {
        for (int i = 0; i < n; i++) {
            long chunk = arrivals.next();
            assertTrue(arrivals.arrive(ImmCodec.data(7, chunk), 8));
            arrivals.applied();
        }
    }
}
