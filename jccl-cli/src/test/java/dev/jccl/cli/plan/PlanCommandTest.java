package dev.jccl.cli.plan;

import dev.jccl.trace.MiniJson;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jccl plan} on the README's example, its --json and --report, and its one-line errors. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("unit")
class PlanCommandTest {
    static final String[] EXAMPLE = {"--params", "7B", "--hosts", "8", "--ranks-per-host", "8", "--inter", "ib-200"};

    static PlanCommand parse(String... args) {
        PlanCommand c = new PlanCommand();
        new CommandLine(c).parseArgs(args);
        return c;
    }

    static PlanOutcome outcome(String... args) throws IOException {
        return PlanOutcome.of(parse(args).job());
    }

    @Test
    void theExamplePrintsARingOfAboutTwoSecondsAndNamesTheTunersChoice() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        PlanText.print(new PrintStream(b, true, StandardCharsets.UTF_8), outcome(EXAMPLE), List.of());
        String text = b.toString(StandardCharsets.UTF_8);
        String ring = text.lines().filter(l -> l.trim().startsWith("ring ")).findFirst().orElseThrow();
        assertTrue(ring.contains("2.214 s") && ring.contains("55.13 GB"), ring);
        assertTrue(text.contains("* hierarchical"), text);
        assertTrue(text.contains("tuner's choice: hierarchical"), text);
        assertTrue(text.contains("hierarchical sends 6.13 GB per rank across hosts, 0.111 of the flat ring's 55.13 GB"), text);
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonParsesAndCarriesTheSameNumbers() throws IOException {
        PlanOutcome o = outcome(EXAMPLE);
        Map<String, Object> j = (Map<String, Object>) MiniJson.parse(PlanJson.render(o, List.of()));
        List<Object> algs = (List<Object>) j.get("algorithms");
        Map<String, Object> ring = (Map<String, Object>) algs.getFirst();
        assertEquals("ring", ring.get("name"));
        assertEquals((double) o.plan().get("ring").timeNs(), (double) ring.get("allreduceNs"));
        assertEquals(2.2, (double) ring.get("allreduceNs") / 1e9, 0.05);
        Map<String, Object> hier = (Map<String, Object>) algs.getLast();
        assertEquals(1.0 / 8, (double) hier.get("crossHostBytesPerRank") / (double) ring.get("crossHostBytesPerRank"), 0.015);
        assertEquals("hierarchical", j.get("tunerChoice"));
    }

    @Test
    void computeTimeGivesShareAndTheBandwidthThatHidesSync(@TempDir Path dir) throws IOException {
        PlanOutcome o = outcome("--params", "7B", "--hosts", "8", "--ranks-per-host", "8", "--compute", "6s", "--accum-steps", "2");
        assertTrue(o.hideGBps() > 0, "some bandwidth hides sync under 4 s of backward");
        assertTrue(o.steps().get("hierarchical").hiddenNs() > 0);
        Path html = dir.resolve("plan.html");
        PlanHtml.write(html, o, List.of());
        String page = Files.readString(html);
        assertTrue(page.contains("echarts") && !page.contains("/*DATA*/") && !page.contains("/*ECHARTS*/"));
    }

    @Test
    void measuredLinksComeFromACsvFile(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("links.csv");
        Files.writeString(f, "# from jccl perf\nlink,alpha_us,bandwidth_GBps\nintra,2,9.5\ninter,30,1.2\n");
        PlanJob job = parse("--bytes", "64M", "--hosts", "2", "--ranks-per-host", "2", "--measured", f.toString()).job();
        assertEquals(1.2, job.request().inter().gbytesPerSec(), 1e-9);
        assertEquals(30_000, job.request().inter().latencyNs());
        Files.writeString(f, "inter,30\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse("--bytes", "64M", "--measured", f.toString()).job());
        assertTrue(e.getMessage().startsWith("--measured "), e.getMessage());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "--params 0                                   | --params must be at least 1",
            "--params -7B                                 | --params must be at least 1",
            "--params seven                               | --params: not a parameter count",
            "--bytes 0                                    | --bytes must be at least 1 byte",
            "--params 7B --hosts 0                        | --hosts must be at least 1",
            "--params 7B --ranks-per-host -1              | --ranks-per-host must be at least 1",
            "--params 7B --hosts 100000 --ranks-per-host 100000 | --hosts 100000 x --ranks-per-host 100000 = 10000000000 ranks",
            "--params 7B --inter ib-900                   | --inter: unknown link 'ib-900'",
            "--params 7B --intra warp                     | --intra: unknown link 'warp'",
            "--params 7B --grad-type fp8                  | --grad-type: unknown type 'fp8'",
            "--params 7B --bucket-size 0                  | --bucket-size must be at least 1 byte",
            "--params 7B --accum-steps 0                  | --accum-steps must be at least 1",
            "--params 7B --compute 0s                     | --compute must be a positive duration",
            "--params 7B --bytes 1G                       | give the model size as --params N or --bytes SIZE",
    })
    void badInputIsOneLineNamingTheFlag(String args, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(args.trim().split("\\s+")).job());
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
