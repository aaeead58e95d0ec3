package dev.jccl.cli.itest;

import dev.jccl.cli.tool.JsonParse;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The toolkit as a user runs it, each command shortened by its flags: it starts its own ranks,
 * prints one JSON object with {@code --json} (it must parse), writes its {@code --report} page
 * (loaded in headless Chromium: no console errors, its charts drawn, a screenshot that is not
 * blank), and exits 0 unless a check FAILs.
 */
@Tag("slow")
class ToolkitEndToEndTest {
    @TempDir
    Path dir;

    private Map<String, Object> run(int expectedExit, String... args) throws Exception {
        CliRun run = CliRun.run(Map.of("JCCL_TIMEOUT", "30s"), Duration.ofSeconds(150), args);
        assertEquals(expectedExit, run.exitCode(), run.describe());
        List<String> objects = run.stdoutLines().stream().filter(l -> l.startsWith("{")).toList();
        assertEquals(1, objects.size(), "one JSON object: " + run.describe());
        assertEquals(objects.getFirst(), run.stdout().strip(), "nothing but the JSON object on stdout: " + run.describe());
        return JsonParse.object(objects.getFirst());
    }

    private String[] withReport(String name, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--json", "--report", dir.resolve(name).toString()));
        return all.toArray(String[]::new);
    }

    @Test
    @Timeout(200)
    void topoPrintsTheMatrixAndItsPage() throws Exception {
        Map<String, Object> j = run(0, withReport("topo.html", "topo", "-N", "2"));
        assertEquals("topo", j.get("tool"));
        assertTrue(j.toString().contains("SHM"), j.toString());
        ReportPages.check(dir.resolve("topo.html"), 1, dir);
    }

    @Test
    @Timeout(200)
    void pathMeasuresTheStagingOfAHeapArrayOverTcp() throws Exception {
        Map<String, Object> j = run(0, withReport("path.html", "path", "allreduce", "--size", "1M", "--measure", "--buffer", "array",
                "-p", "tcp"));
        assertEquals("tcp", j.get("provider"));
        List<?> counters = (List<?>) j.get("counters");
        assertEquals(2, counters.size());
        for (Object c : counters) {
            Map<?, ?> m = (Map<?, ?>) c;
            assertEquals(2.0 * (1 << 20), m.get("staged_bytes"), "input in, output out: " + m);
            assertTrue((Double) m.get("socket_bytes_written") >= (1 << 20), m.toString());
        }
        assertTrue(j.toString().contains("pass a MemorySegment"), "the fix for the staging copies: " + j);
        ReportPages.check(dir.resolve("path.html"), 1, dir);
    }

    @Test
    @Timeout(200)
    void sweepOverTcpFindsAKneeAndRecommendsIt() throws Exception {
        Map<String, Object> j = run(0, withReport("sweep.html", "sweep", "qps", "-N", "2", "-p", "tcp", "--values", "1,2,4",
                "--sizes", "1M", "-n", "3"));
        assertEquals("JCCL_QPS_PER_CONNECTION", j.get("knob"));
        double rec = (Double) j.get("recommended");
        assertTrue(rec == 1 || rec == 2 || rec == 4, j.toString());
        assertEquals(3, ((List<?>) j.get("points")).size());
        ReportPages.check(dir.resolve("sweep.html"), 1, dir);
    }

    @Test
    @Timeout(200)
    void stressStopsByItselfWritesItsCsvAndFindsNoPeriodWithoutStalls() throws Exception {
        Path csv = dir.resolve("stress.csv");
        Map<String, Object> j = run(0, withReport("stress.html", "stress", "--minutes", "0.15", "--interval", "500ms", "-N", "2",
                "--csv", csv.toString()));
        assertEquals(0.0, j.get("wrong"));
        assertEquals(Boolean.FALSE, j.get("periodic"), j.toString());
        List<String> lines = Files.readAllLines(csv);
        assertTrue(lines.size() > 5 && lines.getFirst().startsWith("interval,end_s,busbw_gbps"), lines.toString());
        ReportPages.check(dir.resolve("stress.html"), 1, dir);
    }

    @Test
    @Timeout(200)
    void doctorChecksEverythingAndDrawsTheMatrixAndTheSoak() throws Exception {
        Map<String, Object> j = run(0, withReport("doctor.html", "doctor", "-N", "2", "--soak", "3s", "--skip", "buffsize"));
        List<String> checks = ((List<?>) j.get("findings")).stream().map(f -> (String) ((Map<?, ?>) f).get("check")).toList();
        for (String c : List.of("transport", "interface", "/dev/shm", "open files", "locked memory", "ranks per core", "consistency",
                "all pairs", "correctness", "collapse", "qps knee")) {
            assertTrue(checks.contains(c), c + " missing from " + checks);
        }
        assertFalse(j.get("verdict").equals("FAIL"), j.toString());
        ReportPages.check(dir.resolve("doctor.html"), 2, dir);
    }

    @Test
    @Timeout(200)
    void doctorFailsASilentTcpFallbackOnOneHostAndSaysHowToFixIt() throws Exception {
        Map<String, Object> j = run(1, "doctor", "-N", "2", "-p", "tcp", "--skip", "pairs,qps,buffsize,soak", "--json");
        assertEquals("FAIL", j.get("verdict"));
        Map<?, ?> transport = ((List<?>) j.get("findings")).stream().map(f -> (Map<?, ?>) f)
                .filter(f -> f.get("check").equals("transport")).findFirst().orElseThrow();
        assertEquals("FAIL", transport.get("verdict"), transport.toString());
        assertTrue(((String) transport.get("evidence")).contains("use tcp although shm reaches"), transport.toString());
        assertTrue(((String) transport.get("fix")).contains("JCCL_TRANSPORT=shm,tcp"), transport.toString());
    }
}
