package dev.jccl.netns;

import dev.jccl.cli.tool.detect.Stats;
import dev.jccl.netns.PlanVsMeasured.Case;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The arithmetic of bench/plan-vs-measured.sh, without a cluster: alpha fitted from a probe recovers the
 * alpha that produced it, with and without the delay proxy's delay on the network links, the
 * machine's CPU shares come from /proc/stat's fields, the median over rounds, and the ranks' extra knobs.
 */
@Tag("unit")
class PlanFitTest {
    @Test
    void theFittedAlphaIsTheOneThatProducedTheProbe() {
        for (String name : new String[] {"ring", "hierarchical"}) {
            for (long delayMs : new long[] {0, 5}) {
                Case c = new Case(2, "1gbit", name, 1 << 20, 1 << 20, delayMs);
                long alpha = 2_000_000;
                long delay = delayMs * 1_000_000;
                long probe = PlanVsMeasured.predictNs(c, PlanRank.PROBE_BYTES, PlanVsMeasured.intraLink(alpha),
                        PlanVsMeasured.interLink("1gbit", alpha + delay));
                assertEquals(alpha, PlanVsMeasured.fitAlphaNs(c, probe, delay), 2_000, name + " +" + delayMs + " ms");
            }
        }
    }

    @Test
    void theMedianOfRoundsIsTheMiddleRatio() {
        assertEquals(1.1, Stats.median(new double[] {1.3, 0.8, 1.1}), 1e-12);
        assertEquals(1.0, Stats.median(new double[] {1.2, 0.8}), 1e-12, "an even count takes the mean of the middle two");
    }

    @Test
    void rankKnobsAreKeyValuePairsAndAnythingElseIsRefused() {
        assertEquals(Map.of("JCCL_SPIN", "0", "JCCL_TRANSPORT", "tcp"), PlanBenchKnobs.keyValues(" JCCL_SPIN=0  JCCL_TRANSPORT=tcp "));
        assertEquals(Map.of(), PlanBenchKnobs.keyValues(""));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PlanBenchKnobs.keyValues("JCCL_SPIN"));
        assertTrue(e.getMessage().contains("'JCCL_SPIN'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PlanBenchKnobs.keyValues("=0"));
    }

    @Test
    void machineCpuSharesAddUp() {
        MachineCpu before = new MachineCpu(new long[] {100, 0, 50, 800, 0, 0, 10, 0});
        MachineCpu after = new MachineCpu(new long[] {160, 0, 70, 900, 0, 0, 30, 0});
        // 200 ticks: 100 idle, user 60, system 20, softirq 20.
        assertEquals("cores 50% busy (user 30%, system 10%, softirq 10%, iowait 0%, steal 0%)", after.since(before));
        assertEquals("cpu use unknown", new MachineCpu(new long[0]).since(before));
        assertTrue(MachineCpu.now().since(MachineCpu.now()).startsWith("c"), "reads this machine's /proc/stat or says unknown");
    }
}
