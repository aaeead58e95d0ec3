package dev.jccl.cli.itest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** {@code jccl demo} as a user runs it: a CLI JVM that launches its own rank JVMs. */
class DemoEndToEndTest {
    static Stream<String> providers() {
        return ProviderUnderTest.names();
    }

    @ParameterizedTest
    @MethodSource("providers")
    @Timeout(60)
    void threeRanksPassEveryBufferAroundTheRingAndVerifyEachStep(String provider) throws Exception {
        ProviderUnderTest.require(provider);
        CliRun run = CliRun.run(Map.of("JCCL_TIMEOUT", "30s"), Duration.ofSeconds(55),
                "demo", "--ranks", "3", "--size", "1M", "--transport", provider, "--timeout", "50s");
        assertEquals(0, run.exitCode(), run.describe());
        List<String> lines = run.stdoutLines();
        assertTrue(lines.contains("jccl demo: 3 ranks on this host, 1 MiB each, over " + provider), run.describe());
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
    }

    @Test
    @Timeout(30)
    void aRingOfOneRankIsRefusedBeforeAnythingIsLaunched() throws Exception {
        CliRun run = CliRun.run(Map.of(), Duration.ofSeconds(25), "demo", "--ranks", "1");
        assertNotEquals(0, run.exitCode(), run.describe());
        assertEquals("jccl demo: --ranks must be >= 2 for a ring, got 1", run.stderr().strip(), run.describe());
        assertEquals("", run.stdout(), "nothing launched: " + run.describe());
    }
}
