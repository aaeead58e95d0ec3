package dev.jccl.cli.itest;

import dev.jccl.cli.perf.PerfTable;
import dev.jccl.testkit.ProviderUnderTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** {@code jccl perf write_lat} as a user runs it: the CLI launches its two ranks and rank 0 prints the table. */
@Tag("multiprocess")
class PerfEndToEndTest {
    static Stream<String> providers() {
        return ProviderUnderTest.names();
    }

    @ParameterizedTest
    @MethodSource("providers")
    @Timeout(60)
    void writeLatencyOverTwoLaunchedRanksPrintsOneRow(String provider) throws Exception {
        ProviderUnderTest.require(provider);
        CliRun run = CliRun.run(Map.of("JCCL_TIMEOUT", "30s"), Duration.ofSeconds(55),
                "perf", "write_lat", "-s", "8", "-n", "200", "-p", provider, "--timeout", "50s");
        assertEquals(0, run.exitCode(), run.describe());
        List<String> rank0 = run.stdoutLines().stream().filter(l -> l.startsWith("[0] ")).map(l -> l.substring(4)).toList();
        assertEquals(run.stdoutLines().size(), rank0.size(), "only rank 0 prints, every line prefixed: " + run.describe());
        assertTrue(rank0.contains("                    RDMA_WRITE_WITH_IMM Latency Test"), run.describe());
        assertTrue(rank0.stream().anyMatch(l -> l.startsWith(" Provider        : " + provider + " (")), run.describe());
        PerfTable table = PerfTable.parse(rank0, true);
        assertEquals(List.of(8L), table.sizes(), run.describe());
        table.checkLatencyRows(200);
    }
}
