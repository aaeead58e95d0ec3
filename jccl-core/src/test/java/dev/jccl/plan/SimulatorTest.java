package dev.jccl.plan;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.jccl.algo.Algorithm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator against the closed form on uniform networks, and its shortcuts against the full
 * simulation. Bounds: the ring and recursive doubling are bandwidth-bound on one queue in both
 * models and agree within 5%; the others differ by design (see {@link SimResult#reasons()}) and are
 * held to the band the comparison in docs/ARCHITECTURE.md states.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("unit")
class SimulatorTest {
    static final LinkSpec NVLINK = LinkSpec.parse("nvlink");
    static final LinkSpec IB200 = LinkSpec.parse("ib-200");

    @ParameterizedTest(name = "{0} on {1}x{2}: within {3}")
    @CsvSource({
            "ring,               8, 8, 0.05",
            "ring,               1, 8, 0.05",
            "recursive_doubling, 8, 8, 0.05",
            "hierarchical,       8, 8, 0.25",
            "halving_doubling,   8, 8, 0.35",
            "tree,               8, 8, 0.60",
    })
    void agreesWithTheClosedFormOnAUniformNetwork(String alg, int hosts, int perHost, double bound) {
        SimResult s = Simulator.simulate(PlanRequest.of(64L << 20, hosts, perHost, NVLINK, IB200), alg);
        assertTrue(Math.abs(s.difference()) <= bound, alg + ": simulated " + s.simulatedNs() + " ns, closed form " + s.closedFormNs()
                + " ns, " + String.join("; ", s.reasons()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ring", "hierarchical"})
    void hostZeroStandsForEveryHostWhereTheScheduleIsSymmetric(String name) {
        Algorithm a = Algorithm.parse(name);
        PlanRequest req = PlanRequest.of(16L << 20, 4, 4, NVLINK, IB200);
        AlgorithmPlan c = Planner.plan(req).get(name);
        SimResult full = Simulator.simulate(req, a, Symmetry.NONE, c.channels(), c.chunkBytes(), c.timeNs());
        SimResult shortcut = Simulator.simulate(req, a, Symmetry.of(a, Planner.topology(req)), c.channels(), c.chunkBytes(), c.timeNs());
        assertTrue(shortcut.events() * 3 < full.events(), "fewer events: " + shortcut.events() + " vs " + full.events());
        // Not bit-equal: the queues are booked in another order (host 0's ranks book what other hosts' would).
        assertEquals(full.simulatedNs(), shortcut.simulatedNs(), full.simulatedNs() * 0.01, name);
    }

    @Test
    void aThousandRanksOfOneGibibyteTakeSeconds() {
        PlanRequest req = PlanRequest.of(1L << 30, 128, 8, NVLINK, IB200);
        // The other two take 1-3 s more each here; the README's figures come from jccl plan --simulate.
        for (String alg : List.of("ring", "hierarchical", "tree")) {
            SimResult s = Simulator.simulate(req, alg);
            // Reported, not asserted tightly: the machine may be shared. The bound only catches a return to all-ranks simulation.
            System.out.printf("1024 ranks x 1 GiB, %s: simulated %.2f ms, closed form %.2f ms, %d events in %.2f s%n", alg,
                    s.simulatedNs() / 1e6, s.closedFormNs() / 1e6, s.events(), s.wallNs() / 1e9);
            assertTrue(s.events() < 5_000_000, alg + ": " + s.events() + " events");
        }
    }

    @Test
    void anAlgorithmThatCannotRunHereIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Simulator.simulate(PlanRequest.of(1 << 20, 1, 8, NVLINK, IB200), "hierarchical"));
        assertTrue(e.getMessage().startsWith("hierarchical: "), e.getMessage());
    }

    @Test
    void smallChunksOverALongLinkWaitForSlotCreditsToComeBack() {
        // 2 hosts x 1 rank, 5 ms each way: a 256 KiB ring step is 32 chunks of 4 KiB, and 8 slots let 8 go per 10 ms round trip.
        PlanRequest req = new PlanRequest(256 << 10, 2, 1, LinkSpec.parse("10GB/s,600us"), LinkSpec.parse("956.4Mb/s,5ms"), 4);
        assertEquals(8, Simulator.slots(4096));
        assertEquals(2 * 4 * 10e6, Simulator.simulate(req, "ring", 1, 4096).simulatedNs(), 5e6);
        assertTrue(Simulator.simulate(req, "ring", 1, 64 << 10).simulatedNs() < 20e6, "64 KiB chunks need one window per step");
    }

    @Test
    void aChunkPaysTheNetworkLatencyOnlyOnTheRingStepsItCrossesHosts() {
        // 2 hosts x 2 ranks: a chunk's 6 ring steps alternate shm and network, so +5 ms costs 3 x 5 ms in both models.
        PlanRequest req = new PlanRequest(256 << 10, 2, 2, LinkSpec.parse("10GB/s,600us"), LinkSpec.parse("956.4Mb/s,5600us"), 4);
        SimResult r = Simulator.simulate(req, "ring", 2, 16 << 10);
        assertEquals(r.closedFormNs(), r.simulatedNs(), 0.1 * r.closedFormNs());
        assertTrue(r.simulatedNs() > 3 * 5.6e6 && r.simulatedNs() < 4 * 5.6e6, "three network latencies and change: " + r.simulatedNs());
    }

    @Test
    void theCallEndsWithItsLastChunkNotWithTheLastCreditComingBack() {
        // One chunk per step: the last step's receive ends the call; its slot credit is still on its way back for 5 ms.
        long chunk = 64 << 10;
        PlanRequest req = new PlanRequest(4 * chunk, 2, 2, LinkSpec.parse("10GB/s,600us"), LinkSpec.parse("956.4Mb/s,5600us"), 4);
        SimResult r = Simulator.simulate(req, "ring", 1, chunk);
        double wire = chunk / (956.4e6 / 8) * 1e9;
        assertEquals(3 * (5.6e6 + wire) + 3 * 0.6e6, r.simulatedNs(), 0.3e6);
    }
}
