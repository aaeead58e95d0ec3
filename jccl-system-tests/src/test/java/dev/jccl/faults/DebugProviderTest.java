package dev.jccl.faults;

import dev.jccl.testkit.CommRanks;
import dev.jccl.testkit.debug.DebugProvider;
import dev.jccl.testkit.debug.FaultSpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The debug provider under the collectives: without faults it changes nothing; a fault spec reaches
 * exactly the ranks it names; and each fault ends in a correct result or a clear error on every rank.
 */
@Tag("multiprocess")
class DebugProviderTest {
    private static final Map<String, String> TCP = Map.of("JCCL_TRANSPORT", "debug,tcp");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"debug,shm", "debug,tcp"})
    @Timeout(60)
    void withoutFaultsCollectivesAreCorrect(String transport) {
        assertEquals(List.of("ok", "ok", "ok"), FaultRuns.allReduce(3, Map.of("JCCL_TRANSPORT", transport), "", 100_003, 3));
    }

    @Test
    @Timeout(60)
    void aDelayStrikesOnlyTheRankItNames() {
        List<Map<FaultSpec.Kind, Long>> fired = CommRanks.runWithFaults(3, r -> TCP, FaultSpec.parse("delay=rank2:2ms"), comm -> {
            comm.barrier().await();
            comm.barrier().await();
            return DebugProvider.fired(comm.rank());
        });
        assertEquals(Map.of(), fired.get(0));
        assertEquals(Map.of(), fired.get(1));
        assertTrue(fired.get(2).getOrDefault(FaultSpec.Kind.DELAY, 0L) > 0, fired.toString());
    }

    @Test
    @Timeout(60)
    void aStalledRankStillGivesCorrectResults() {
        List<String> ranks = FaultRuns.allReduce(2, TCP, "stall=rank1:50ms/100ms", 100_003, 4);
        assertTrue(ranks.get(0).startsWith("ok") && ranks.get(1).startsWith("ok (fired {STALL="), ranks.toString());
    }

    @Test
    @Timeout(60)
    void aQueuePairInErrFailsEveryRankNamingTheLink() {
        List<String> ranks = FaultRuns.allReduce(3, TCP, "err=rank1@#3", 100_003, 3);
        for (String s : ranks) assertTrue(s.startsWith("error") && s.contains("rank 1"), ranks.toString());
    }

    @Test
    void malformedSpecsNameTheEntry() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FaultSpec.parse("seed=1;stall=rank1:10s/1s"));
        assertTrue(e.getMessage().contains("stall=rank1:10s/1s"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FaultSpec.parse("inner=debug"));
        assertThrows(IllegalArgumentException.class, () -> FaultSpec.parse("wobble=rank1"));
        assertEquals(3, FaultSpec.parse("inner=tcp;seed=7;delay=rank2:2ms;stall=rank1:200ms/10s;drop=*@p0.01").faults().size());
    }
}
