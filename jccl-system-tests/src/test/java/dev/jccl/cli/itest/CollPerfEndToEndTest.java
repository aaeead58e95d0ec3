package dev.jccl.cli.itest;

import dev.jccl.testkit.ProviderUnderTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** {@code jccl perf <collective>} as a user runs it: it launches its ranks, checks results and prints nccl-tests' table. */
@Tag("slow")
class CollPerfEndToEndTest {
    /** size count type redop root | time algbw busbw #wrong | time algbw busbw #wrong */
    private static final Pattern ROW = Pattern.compile(
            "\\s*(\\d+)\\s+(\\d+)\\s+(\\w+)\\s+(\\w+)\\s+(-?\\d+)"
                    + "\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+(\\S+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+(\\S+)");

    /** ROW, then with --stats: mean p50 p99 out of place, mean p50 p99 in place. */
    private static final Pattern STATS_ROW = Pattern.compile(ROW.pattern() + "\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)"
            + "\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)");

    static Stream<String> providers() {
        return ProviderUnderTest.names();
    }

    private static List<Matcher> rows(CliRun run) {
        return run.stdoutLines().stream().filter(l -> l.startsWith("[0] ")).map(l -> ROW.matcher(l.substring(4)))
                .filter(Matcher::matches).toList();
    }

    @ParameterizedTest
    @MethodSource("providers")
    @Timeout(120)
    void allreduceChecksEverySizeAndPrintsTheAverage(String provider) throws Exception {
        ProviderUnderTest.require(provider);
        CliRun run = CliRun.run(Map.of("JCCL_TIMEOUT", "30s"), Duration.ofSeconds(110), "perf", "allreduce", "-N", "3",
                "-b", "8", "-e", "64K", "-f", "8", "-n", "3", "-w", "1", "-c", "1", "-z", "1", "--jit-warmup", "100ms",
                "-p", provider, "--timeout", "100s");
        assertEquals(0, run.exitCode(), run.describe());
        List<Matcher> rows = rows(run);
        // 8 B .. 64 KiB by 8, each rounded down to whole float elements: 8, 64, 512, 4096, 32768.
        assertEquals(List.of(8L, 64L, 512L, 4096L, 32768L), rows.stream().map(m -> Long.parseLong(m.group(1))).toList(), run.describe());
        for (Matcher m : rows) {
            assertEquals(Long.parseLong(m.group(1)) / 4, Long.parseLong(m.group(2)), "count column: " + m.group());
            assertEquals("float", m.group(3));
            assertEquals("sum", m.group(4));
            assertEquals("0", m.group(9), "#wrong out of place: " + m.group());
            assertEquals("0", m.group(13), "#wrong in place: " + m.group());
            assertTrue(Double.parseDouble(m.group(6)) > 0, "a time was measured: " + m.group());
        }
        assertTrue(run.stdout().contains("# Avg bus bandwidth"), run.describe());
    }

    @Test
    @Timeout(120)
    void everyOtherCollectiveRunsCheckedAsJson() throws Exception {
        for (String test : List.of("reduce_scatter", "all_gather", "broadcast", "reduce", "alltoall")) {
            CliRun run = CliRun.run(Map.of("JCCL_TIMEOUT", "30s"), Duration.ofSeconds(60), "perf", test, "-N", "3",
                    "-b", "12", "-e", "3000", "-f", "7", "-n", "2", "-w", "1", "-c", "1", "-r", "2", "--jit-warmup", "0",
                    "--batches", "2", "--batch-time", "1ms",
                    "--json", "--timeout", "50s");
            assertEquals(0, run.exitCode(), run.describe());
            // Rank 0's stdout is passed through unprefixed in JSON mode, so the line is JSON as it stands.
            String json = run.stdoutLines().stream().filter(l -> l.startsWith("{")).findFirst()
                    .orElseThrow(() -> new AssertionError("no JSON line: " + run.describe()));
            assertTrue(json.endsWith("}"), json);
            assertTrue(json.startsWith("{\"test\":\"" + test + "\",\"ranks\":3,"), json);
            List<String> wrong = Pattern.compile("\"wrong\":(\\w+)").matcher(json).results().map(r -> r.group(1)).toList();
            assertFalse(wrong.isEmpty(), json);
            assertTrue(wrong.stream().allMatch("0"::equals), "every size checked, nothing wrong: " + json);
        }
    }

    @Test
    @Timeout(300)
    void withNoFlagsItRunsEverySizeInNcclTestsColumns() throws Exception {
        CliRun run = CliRun.run(Map.of("JCCL_TIMEOUT", "60s"), Duration.ofSeconds(290), "perf", "allreduce");
        assertEquals(0, run.exitCode(), run.describe());
        assertTrue(run.stdout().contains("#       size         count      type   redop    root     time   algbw   busbw #wrong"), run.describe());
        List<Matcher> rows = rows(run);
        assertEquals(23, rows.size(), "8 B to 32 MiB doubling: " + run.describe());
        for (Matcher m : rows) {
            assertEquals("0", m.group(9), m.group());
            assertEquals("0", m.group(13), m.group());
        }
        assertTrue(run.stdout().contains("# Out of bounds values : 0 OK"), run.describe());
    }

    @Test
    @Timeout(120)
    void statsPrintTheMeanAndP50AtMostP99PerSize() throws Exception {
        CliRun run = CliRun.run(Map.of("JCCL_TIMEOUT", "30s"), Duration.ofSeconds(110), "perf", "allreduce", "-b", "8", "-e", "4K", "-f", "8",
                "--batches", "3", "--batch-time", "1ms", "--stats", "--jit-warmup", "100ms", "--timeout", "100s");
        assertEquals(0, run.exitCode(), run.describe());
        assertTrue(run.stdout().contains("     mean      p50      p99     mean      p50      p99"), run.describe());
        List<Matcher> rows = run.stdoutLines().stream().filter(l -> l.startsWith("[0] ")).map(l -> STATS_ROW.matcher(l.substring(4)))
                .filter(Matcher::matches).toList();
        assertEquals(List.of(8L, 64L, 512L, 4096L), rows.stream().map(m -> Long.parseLong(m.group(1))).toList(), run.describe());
        for (Matcher m : rows) {
            for (int first : new int[] {14, 17}) {
                double mean = Double.parseDouble(m.group(first));
                double p50 = Double.parseDouble(m.group(first + 1));
                double p99 = Double.parseDouble(m.group(first + 2));
                assertTrue(mean > 0 && p50 > 0, m.group());
                assertTrue(p50 <= p99, "p50 <= p99: " + m.group());
            }
        }
    }

    @Test
    @Timeout(60)
    void aBadFlagIsRefusedWithOneLine() throws Exception {
        CliRun run = CliRun.run(Map.of(), Duration.ofSeconds(50), "perf", "allreduce", "--jit-warmup", "soon");
        assertNotEquals(0, run.exitCode(), run.describe());
        assertTrue(run.stderr().contains("not a duration: 'soon'"), run.describe());
    }
}
