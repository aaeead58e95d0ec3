package dev.jccl.cli.tool;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A report's three forms: the table, one JSON object that parses, and a page with the data and the charting library inlined. */
@Tag("unit")
class ToolReportTest {
    private static ToolReport sample() {
        ToolReport r = new ToolReport("doctor", "2 ranks \"quoted\" </script>");
        r.add(Finding.ok("transport", "shm for 0-1"));
        r.add(Finding.fail("slow rank", "rank 2", "check its link"));
        r.add(Table.of("matrix", List.of("", "rank0")).row("rank0", "SELF"));
        r.add(Chart.line("busbw", "note", "x", "y", new double[] {1, 2}, List.of(new Chart.Series("s", new double[] {1, Double.NaN})),
                List.of(1), "knee"));
        r.add(Chart.heatmap("pairs", "", List.of("rank 0", "rank 1"), new double[][] {{Double.NaN, 1}, {1, Double.NaN}}, "GB/s"));
        r.add(Chart.graph("path", "", List.of(new Chart.Node("a", "x", 0, 0), new Chart.Node("b", "y", 1, 1)),
                List.of(new Chart.Edge("a", "b", "copy"))));
        r.json(w -> w.name("extra").value(true));
        return r;
    }

    @Test
    void jsonIsOneObjectWithTheVerdictAndEveryFinding() {
        Map<String, Object> j = JsonParse.object(sample().json());
        assertEquals("doctor", j.get("tool"));
        assertEquals("FAIL", j.get("verdict"));
        assertEquals(2, ((List<?>) j.get("findings")).size());
        assertEquals(Boolean.TRUE, j.get("extra"));
    }

    @Test
    void failMakesTheExitStatusNonZero() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        assertEquals(1, sample().emit(new PrintStream(b, true, StandardCharsets.UTF_8), false, null));
        String text = b.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("FAIL") && text.contains("check its link"), text);
        ToolReport ok = new ToolReport("topo", "fine").add(Finding.warn("numa", "x", "y"));
        assertEquals(0, ok.emit(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), true, null));
    }

    @Test
    void thePageInlinesTheLibraryAndTheDataSafely() {
        String html = sample().html();
        assertTrue(html.contains("echarts"), "ECharts inlined");
        assertFalse(html.contains("/*DATA*/") || html.contains("/*ECHARTS*/"), "placeholders replaced");
        assertFalse(html.contains("</script> \""), "a </script> in the data is escaped");
        String data = html.substring(html.indexOf("const D = ") + "const D = ".length());
        data = data.substring(0, data.indexOf(";\nconst R"));
        Map<String, Object> d = JsonParse.object(data);
        assertEquals(3, ((List<?>) d.get("charts")).size());
    }
}
