package dev.jccl.cli.perf;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.testkit.ProviderUnderTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** Both ranks of every perf test as two threads of this JVM, over every provider, with 0-byte messages too. */
@Tag("multiprocess")
class PerfRunnerTest {
    /** 0 moves no bytes; 64 is the smallest whose MB/s still shows in two decimals on a slow machine. */
    private static final List<Long> SIZES = List.of(0L, 64L, 4099L, 65536L);
    private static final Config CONFIG = Config.of(Map.of("JCCL_RNR_TIMEOUT", "2s", "JCCL_TIMEOUT", "20s",
            "JCCL_AUTH_TOKEN", "perf-runner-test"));

    /** Every test over every provider with -q 2 (and -b for bandwidth), plus the bandwidth tests one way over one QP. */
    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        ProviderUnderTest.names().forEach(p -> {
            for (PerfTest t : PerfTest.values()) {
                out.add(Arguments.of(p, t, 2, !t.latency));
                if (!t.latency) out.add(Arguments.of(p, t, 1, false));
            }
        });
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} -q {2} bidirectional={3}")
    @MethodSource("cases")
    @Timeout(60)
    void bothRanksRunAndRankZeroPrintsOneRowPerSize(String provider, PerfTest test, int qps, boolean bidirectional)
            throws InterruptedException {
        ProviderUnderTest.require(provider, CONFIG);
        PerfOptions o = new PerfOptions(test, SIZES, test.latency ? 100 : 300, qps, bidirectional, 32, provider);
        List<String> lines = runBothRanks(o);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(" Provider        : " + provider + " (")), lines::toString);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(" Connection type : RC         Number of qps   : " + qps)), lines::toString);
        assertTrue(lines.stream().anyMatch(l -> l.contains("Bidirectional   : " + (bidirectional ? "ON" : "OFF"))), lines::toString);
        PerfTable table = PerfTable.parse(lines, test.latency);
        assertEquals(SIZES, table.sizes(), String.join("\n", lines));
        if (test.latency) {
            table.checkLatencyRows(o.iterations());
        } else {
            table.checkBandwidthRows(SIZES.stream().map(o::iterationsFor).toList());
        }
    }

    /** Runs rank 0 and rank 1 on two threads; returns what rank 0 printed, after checking rank 1 printed nothing. */
    private static List<String> runBothRanks(PerfOptions o) throws InterruptedException {
        MemoryExchange exchange = new MemoryExchange(CONFIG.get(Knobs.TIMEOUT_NS));
        ByteArrayOutputStream[] printed = {new ByteArrayOutputStream(), new ByteArrayOutputStream()};
        Throwable[] failed = new Throwable[2];
        Thread[] ranks = new Thread[2];
        for (int r = 0; r < 2; r++) {
            int rank = r;
            PrintStream out = new PrintStream(printed[r], true, StandardCharsets.UTF_8);
            ranks[r] = Thread.ofPlatform().name("perf-rank-" + r).start(() -> {
                try {
                    PerfRunner.run(o, rank, CONFIG, exchange.side(rank), out);
                } catch (Throwable t) {
                    failed[rank] = t;
                }
            });
        }
        for (Thread t : ranks) t.join(TimeUnit.SECONDS.toMillis(45));
        for (int r = 0; r < 2; r++) assertFalse(ranks[r].isAlive(), "rank " + r + " still running");
        if (failed[0] != null || failed[1] != null) {
            // Both, since one rank's failure usually shows up on the other as a lost connection.
            AssertionError e = new AssertionError("rank 0 failed: " + failed[0] + "\nrank 1 failed: " + failed[1]);
            for (Throwable t : failed) if (t != null) e.addSuppressed(t);
            throw e;
        }
        assertEquals("", printed[1].toString(StandardCharsets.UTF_8), "only rank 0 prints");
        return printed[0].toString(StandardCharsets.UTF_8).lines().toList();
    }
}
