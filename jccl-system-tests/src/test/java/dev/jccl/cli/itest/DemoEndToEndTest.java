package dev.jccl.cli.itest;

import dev.jccl.testkit.ProviderUnderTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code jccl demo ring} as a user runs it: a CLI JVM that launches its own rank JVMs. With JCCL_DEBUG=INFO
 * and JCCL_DEBUG_FILE=.../rank%r.log each rank logs into its own file which data path it really used.
 */
@Tag("slow")
class DemoEndToEndTest {
    @TempDir
    Path logs;

    static Stream<String> providers() {
        return ProviderUnderTest.names();
    }

    @ParameterizedTest
    @MethodSource("providers")
    @Timeout(60)
    void threeRanksPassEveryBufferAroundTheRingAndVerifyEachStep(String provider) throws Exception {
        ProviderUnderTest.require(provider);
        Map<String, String> env = Map.of("JCCL_TIMEOUT", "30s", "JCCL_DEBUG", "INFO",
                "JCCL_DEBUG_FILE", logs.resolve("rank%r.log").toString());
        CliRun run = CliRun.run(env, Duration.ofSeconds(55),
                "demo", "ring", "--ranks", "3", "--size", "1M", "--transport", provider, "--timeout", "50s");
        assertEquals(0, run.exitCode(), run.describe());
        List<String> lines = run.stdoutLines();
        assertTrue(lines.contains("jccl demo ring: 3 ranks on this host, 1 MiB each, over " + provider), run.describe());
        assertTrue(lines.contains("[0] ring complete: 3 ranks, 2 steps, 6 MiB moved and verified, 0 bytes wrong"), run.describe());
        String path = Pattern.quote(ProviderUnderTest.DATA_PATH.getOrDefault(provider, ""));
        for (int rank = 0; rank < 3; rank++) {
            for (int step = 0; step < 2; step++) {
                int left = (rank + 2) % 3;
                int origin = ((rank - step - 1) % 3 + 3) % 3;
                Pattern verified = Pattern.compile("\\[0] step " + step + " {2}rank " + left + " -> rank " + rank
                        + " {2}1 MiB of rank " + origin + "'s buffer +[\\d.]+ ms {2}verified {2}over .*" + path + ".*");
                assertEquals(1, lines.stream().filter(l -> verified.matcher(l).matches()).count(),
                        "one verified line for rank " + rank + " step " + step + "\n" + run.describe());
            }
        }
        assertTrue(lines.stream().noneMatch(l -> l.contains("CORRUPT")), run.describe());
        checkRankLogs(ProviderUnderTest.DATA_PATH.getOrDefault(provider, ""));
    }

    /** One log per rank, named by its rank, holding only that rank's lines and the path its ring used. */
    private void checkRankLogs(String dataPath) throws IOException {
        try (Stream<Path> files = Files.list(logs)) {
            assertEquals(List.of("rank0.log", "rank1.log", "rank2.log"),
                    files.map(f -> f.getFileName().toString()).sorted().toList());
        }
        for (int rank = 0; rank < 3; rank++) {
            List<String> log = Files.readAllLines(logs.resolve("rank" + rank + ".log"));
            String tag = ":" + rank + " [";
            assertTrue(log.stream().allMatch(l -> l.contains(tag)), "only rank " + rank + "'s lines: " + log);
            assertTrue(log.stream().anyMatch(l -> l.contains("ring: sending over ") && l.contains(dataPath)),
                    "rank " + rank + " logs its data path: " + log);
        }
    }

    @Test
    @Timeout(30)
    void aRingOfOneRankIsRefusedBeforeAnythingIsLaunched() throws Exception {
        CliRun run = CliRun.run(Map.of(), Duration.ofSeconds(25), "demo", "ring", "--ranks", "1");
        assertNotEquals(0, run.exitCode(), run.describe());
        assertEquals("jccl demo ring: --ranks must be >= 2 for a ring, got 1", run.stderr().strip(), run.describe());
        assertEquals("", run.stdout(), "nothing launched: " + run.describe());
    }
}
