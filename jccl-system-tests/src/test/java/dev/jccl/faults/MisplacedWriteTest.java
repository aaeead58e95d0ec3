package dev.jccl.faults;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write lost, duplicated or reordered under the verbs contract, with checksums off: every rank
 * ends with the right result or an error naming a rank, never a wrong result. (Before the chunk
 * index travelled in the immediate and credits became cumulative, a reordered or duplicated chunk
 * was applied from the wrong slot, and a duplicated credit let a sender overwrite a slot not yet
 * read: wrong sums, no error.)
 */
@Tag("multiprocess")
class MisplacedWriteTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"drop", "dup", "reorder"})
    @Timeout(300)
    void neverAWrongResult(String kind) {
        for (int nth = 1; nth <= 12; nth++) {
            List<String> ranks = FaultRuns.allReduce(2, Map.of("JCCL_TRANSPORT", "debug,tcp", "JCCL_TIMEOUT", "2s"),
                    "seed=" + nth + ";" + kind + "=rank" + nth % 2 + "@#" + nth, 20_011, 3);
            for (String s : ranks) {
                assertTrue(s.startsWith("ok") || (s.startsWith("error") && s.matches("(?s).*rank \\d+.*")), kind + " #" + nth + ": " + ranks);
            }
        }
    }
}
