package dev.jccl.exec;

import dev.jccl.algo.Algorithm;
import dev.jccl.algo.Collective;
import dev.jccl.algo.Protocol;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The protocol rule (size, JCCL_PROTO, what LL cannot run) and the LL flags' properties the executor relies on. */
@Tag("unit")
class LlProtocolChoiceTest {
    private static final long T = Protocol.DEFAULT_LL_THRESHOLD_BYTES;

    @Test
    void theSizeRuleAndItsOverride() {
        assertEquals(Protocol.LL, choose(8, null, null).protocol());
        assertEquals(Protocol.LL, choose(T, null, null).protocol());
        assertEquals(Protocol.SIMPLE, choose(T + 1, null, null).protocol());
        assertEquals(Protocol.LL, choose(Protocol.LL_MAX_BYTES, Protocol.LL, null).protocol());
        assertEquals(Protocol.SIMPLE, choose(8, Protocol.SIMPLE, null).protocol());
        assertTrue(choose(8, Protocol.SIMPLE, null).why().contains("JCCL_PROTO"));
        assertTrue(choose(8, null, null).why().contains("LL"));
    }

    @Test
    void llIsRefusedWhereItCannotRunAndSaysWhy() {
        Protocol.Choice big = choose(Protocol.LL_MAX_BYTES + 1, Protocol.LL, null);
        assertEquals(Protocol.SIMPLE, big.protocol());
        assertTrue(big.why().contains("JCCL_PROTO=LL refused"), big.why());
        assertEquals(Protocol.SIMPLE, choose(0, Protocol.LL, null).protocol(), "an empty call stays off LL");
        assertEquals(Protocol.SIMPLE, choose(8, Protocol.LL, "the provider to rank 1 is not shm").protocol());
        assertEquals(Protocol.SIMPLE, Protocol.choose(Collective.ALL_REDUCE, 8, Algorithm.RING, null, null).protocol());
        assertEquals(Protocol.SIMPLE, Protocol.choose(Collective.BROADCAST, 8, Algorithm.TREE, Protocol.LL, null).protocol());
        assertEquals(Protocol.LL, Protocol.choose(Collective.ALL_REDUCE, 8, Algorithm.TREE, null, null).protocol());
    }

    @Test
    void theKnobParses() {
        assertNull(Protocol.parse("auto"));
        assertNull(Protocol.parse(""));
        assertEquals(Protocol.LL, Protocol.parse("LL"));
        assertEquals(Protocol.SIMPLE, Protocol.parse("Simple"));
        assertThrows(IllegalArgumentException.class, () -> Protocol.parse("ll128"));
    }

    @Test
    void flagsAreNeverZeroAndTellCallsOfOneSlotApart() {
        for (long seq = 0; seq < 70_000; seq += 7) {
            for (int fp : new int[] {0, 1, 0x7FFF_FFFF, 0x1234_5678}) {
                int f = LlRun.flag(seq, fp);
                assertNotEquals(0, f);
                assertNotEquals(f, LlRun.flag(seq + 2, fp), "call " + seq + " and the next call of its slot");
                assertNotEquals(f, LlRun.flag(seq, fp ^ 1), "another operation of the same number");
            }
        }
    }

    @Test
    void linesHoldFourBytesEach() {
        assertEquals(0, LlLane.lines(0));
        assertEquals(1, LlLane.lines(1));
        assertEquals(1, LlLane.lines(4));
        assertEquals(2, LlLane.lines(5));
        assertEquals(Protocol.LL_MAX_BYTES / 4 * 8, LlLane.SLOT_BYTES, "a slot holds the largest message as lines");
    }

    private static Protocol.Choice choose(long bytes, Protocol forced, String cannot) {
        return Protocol.choose(Collective.ALL_REDUCE, bytes, Algorithm.RECURSIVE_DOUBLING, forced, cannot);
    }
}
