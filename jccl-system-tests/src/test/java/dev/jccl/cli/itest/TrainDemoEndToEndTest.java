package dev.jccl.cli.itest;

import dev.jccl.testkit.ProviderUnderTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jccl demo} as a user runs it: the CLI launches four rank JVMs that train with data
 * parallelism over shared memory; rank 0 prints the summary and writes the trace and the report.
 */
@Tag("slow")
class TrainDemoEndToEndTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(150)
    void fourRanksTrainAgreeWithOneProcessAndWriteTraceAndReport() throws Exception {
        ProviderUnderTest.require("shm");
        Path trace = dir.resolve("trace.json");
        Path report = dir.resolve("report.html");
        CliRun run = CliRun.run(Map.of("JCCL_TIMEOUT", "60s"), Duration.ofSeconds(140), "demo", "--steps", "12",
                "--reference-steps", "10", "--trace=" + trace, "--report=" + report, "--timeout", "130s");
        assertEquals(0, run.exitCode(), run.describe());
        List<String> lines = run.stdoutLines();
        assertTrue(lines.contains("jccl demo: data-parallel training, 4 ranks on this host over shm"), run.describe());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("[0] bucket plan: 5 bucket(s), limit 1 MiB, replicated")), run.describe());
        String checksums = line(lines, "parameter checksum");
        assertTrue(checksums.endsWith("identical on every rank"), checksums);
        Matcher m = Pattern.compile("rank (\\d) ([0-9a-f]{8})").matcher(checksums);
        int ranks = 0;
        while (m.find()) ranks++;
        assertEquals(4, ranks, checksums);
        Matcher diff = Pattern.compile("after 10 steps ([0-9.e+-]+)").matcher(line(lines, "vs single-process training"));
        assertTrue(diff.find(), run.describe());
        assertTrue(Double.parseDouble(diff.group(1)) < 1e-5, "ranks agree with one process: " + diff.group(1));
        assertTrue(line(lines, "mean step time").contains("compute"), run.describe());
        assertTrue(line(lines, "communication:").contains("hidden under backward"), run.describe());
        assertTrue(line(lines, "allreduce:").contains("busbw"), run.describe());
        assertTrue(line(lines, "data path:").contains("provider shm"), run.describe());

        String json = Files.readString(trace);
        for (String track : List.of("forward", "backward", "allreduce bucket 0", "allreduce bucket 4", "optimizer")) {
            assertTrue(json.contains("\"thread_name\",\"ph\":\"M\",\"pid\":3,") && json.contains("{\"name\":\"" + track + "\"}"), track);
        }
        try (var files = Files.list(dir)) { // rank 0 wrote every rank into trace.json; no communicator wrote its own
            List<String> perRank = files.map(f -> f.getFileName().toString()).filter(n -> n.contains(".rank")).toList();
            assertTrue(perRank.isEmpty(), "per-rank trace files: " + perRank);
        }
        String html = Files.readString(report);
        assertTrue(html.length() > 500_000, "ECharts is inlined: " + html.length() + " chars");
        assertTrue(html.contains("\"lossEma\":[") && html.contains("\"hiddenMs\":[") && html.contains("\"rows\":[\"rank 0"), "report data");
        assertTrue(!html.contains("/*DATA*/") && !html.contains("/*ECHARTS*/"), "placeholders filled");
    }

    @Test
    @Timeout(30)
    void badOptionsAreRefusedBeforeAnythingIsLaunched() throws Exception {
        CliRun run = CliRun.run(Map.of(), Duration.ofSeconds(25), "demo", "--precision", "int8");
        assertNotEquals(0, run.exitCode(), run.describe());
        assertEquals("jccl demo: --precision must be fp32, bf16 or fp16, got int8", run.stderr().strip(), run.describe());
        assertEquals("", run.stdout(), "nothing launched: " + run.describe());
    }

    private static String line(List<String> lines, String start) {
        return lines.stream().filter(l -> l.startsWith("[0]   " + start)).findFirst()
                .orElseThrow(() -> new AssertionError("no line '" + start + "' in\n" + String.join("\n", lines)));
    }
}
