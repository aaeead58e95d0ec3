package dev.jccl.cli.itest;

import dev.jccl.config.Config;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** {@code jccl launch} starting {@code jccl devinfo -v} ranks, and devinfo refusing a malformed knob. */
@Tag("multiprocess")
class CliSmokeTest {
    private static final String SECRET = "smoke-test-secret-4b1d";

    @Test
    @Timeout(60)
    void launchedDevinfoListsEveryProviderAndWhereEachKnobCameFrom() throws Exception {
        List<String> args = new ArrayList<>(List.of("launch", "--nproc-per-node", "2", "--timeout", "50s", "--"));
        args.addAll(CliRun.cli("devinfo", "-v").toList());
        CliRun run = CliRun.run(Map.of("JCCL_TIMEOUT", "45s", "JCCL_AUTH_TOKEN", SECRET), Duration.ofSeconds(55),
                args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.describe());
        assertFalse(run.stdout().contains(SECRET) || run.stderr().contains(SECRET), "the job token is never printed");
        List<VerbsProvider> usable = Providers.all().stream()
                .filter(p -> p.unavailabilityCause(Config.fromEnvironment()).isEmpty()).toList();
        assertFalse(usable.isEmpty(), "no usable provider on the class path");
        for (int rank = 0; rank < 2; rank++) {
            String prefix = "[" + rank + "] ";
            List<String> lines = run.stdoutLines().stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).toList();
            for (VerbsProvider p : usable) {
                List<String> section = section(lines, "provider: " + p.name());
                assertTrue(section.stream().anyMatch(l -> l.startsWith("hca_id:\t")), p.name() + " lists a device: " + section);
                assertTrue(section.stream().anyMatch(l -> l.matches("\\t+state:\\t+PORT_ACTIVE")), p.name() + " has an active port: " + section);
            }
            assertKnob(lines, "JCCL_TIMEOUT", "45s", "environment");
            assertKnob(lines, "JCCL_AUTH_TOKEN", "<set, hidden>", "environment");
            assertKnob(lines, "JCCL_STORE_HOSTED", "1", "environment");
            assertKnob(lines, "JCCL_HEARTBEAT", "200ms", "default");
        }
    }

    @Test
    @Timeout(30)
    void aMalformedTimeoutIsRefusedNamingTheKnobWithoutAStackTrace() throws Exception {
        CliRun run = CliRun.run(Map.of("JCCL_TIMEOUT", "bogus"), Duration.ofSeconds(25), "devinfo", "-v");
        assertNotEquals(0, run.exitCode(), run.describe());
        assertEquals("", run.stdout(), run.describe());
        List<String> err = run.stderr().lines().toList();
        assertEquals(1, err.size(), "one line, no stack trace: " + run.describe());
        assertTrue(err.getFirst().startsWith("jccl devinfo: JCCL_TIMEOUT='bogus' is invalid: "), run.describe());
    }

    /** The lines of one provider's block: from its "provider:" line up to the next one or the knob table. */
    private static List<String> section(List<String> lines, String header) {
        int start = lines.indexOf(header);
        assertTrue(start >= 0, "no '" + header + "' line in " + lines);
        int end = start + 1;
        while (end < lines.size() && !lines.get(end).startsWith("provider: ") && !lines.get(end).isEmpty()) end++;
        return lines.subList(start, end);
    }

    private static void assertKnob(List<String> lines, String name, String value, String source) {
        String regex = "\\s+" + name + "\\s+" + java.util.regex.Pattern.quote(value) + "\\s+\\[" + source + "]\\s+\\S.*";
        assertEquals(1, lines.stream().filter(l -> l.matches(regex)).count(), name + " = " + value + " [" + source + "] in " + lines);
    }
}
