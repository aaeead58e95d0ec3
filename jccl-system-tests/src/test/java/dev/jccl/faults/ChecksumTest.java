package dev.jccl.faults;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JCCL_CHECKSUM: correct results with it on; a flipped bit in a chunk (the debug provider's
 * corrupt fault, which leaves the sender's memory alone) goes unnoticed with it off and fails the
 * collective on every rank, naming sender, channel and chunk, with it on.
 */
@Tag("multiprocess")
class ChecksumTest {
    /** With 256 KiB FIFOs (32 KiB chunks), each rank writes a dozen chunks or more in the first allReduce: the fault strikes data. */
    private static final long COUNT = 100_003;

    @Test
    @Timeout(120)
    void withoutChecksumsACorruptChunkIsNotDetected() {
        int wrong = 0;
        for (int seed = 1; seed <= 5; seed++) {
            List<String> ranks = FaultRuns.allReduce(2, Map.of("JCCL_BUFFSIZE", "256K"), "inner=shm;seed=" + seed + ";corrupt=rank0@#2",
                    COUNT, 1);
            // What this documents: nothing fails, and some rank holds a result that is not the sum.
            assertTrue(ranks.stream().noneMatch(s -> s.startsWith("error")), ranks.toString());
            if (ranks.stream().anyMatch(s -> s.startsWith("wrong"))) wrong++;
        }
        // Most flips change a sum; one that turns 0.0 into -0.0, say, changes nothing a reader can see.
        assertTrue(wrong >= 3, wrong + " of 5: a flipped bit in a chunk changes the result, silently, without JCCL_CHECKSUM");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    @Timeout(300)
    void withChecksumsEveryCorruptChunkFailsEveryRank(String inner) {
        for (int seed = 1; seed <= 20; seed++) {
            int n = 2 + seed % 3;
            int victim = seed % n;
            String spec = "inner=" + inner + ";seed=" + seed + ";corrupt=rank" + victim + "@#" + (1 + seed % 7);
            List<String> ranks = FaultRuns.allReduce(n, Map.of("JCCL_CHECKSUM", "1", "JCCL_TIMEOUT", "5s", "JCCL_BUFFSIZE", "256K"), spec, COUNT, 2);
            for (int r = 0; r < n; r++) {
                String s = ranks.get(r);
                assertTrue(s.startsWith("error") && s.contains("CRC-32C") && s.contains("from rank " + victim) && s.contains("channel"),
                        "seed " + seed + " rank " + r + ": " + s);
            }
        }
    }

    @Test
    @Timeout(60)
    void ranksThatDisagreeOnTheKnobFailAtConnect() {
        AssertionError e = assertThrows(AssertionError.class, () -> CommRanks.run(2,
                r -> CommRanks.knobs("JCCL_TRANSPORT", "tcp", "JCCL_CHECKSUM", r == 0 ? "1" : "0", "JCCL_TIMEOUT", "5s"),
                comm -> {
                    comm.allReduce(Arena.ofAuto().allocate(64), Arena.ofAuto().allocate(64), 16, DataType.FLOAT32, ReduceOp.SUM).await();
                    return null;
                }));
        assertTrue(String.valueOf(e.getCause()).contains("JCCL_CHECKSUM"), String.valueOf(e.getCause()));
    }
}
