package dev.jccl.cli.train;

import dev.jccl.DataType;
import dev.jccl.ddp.CommTiming;
import dev.jccl.ddp.Sharding;
import dev.jccl.trace.TraceEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class ReportAndStatsTest {
    static final long MS = 1_000_000;

    static StepRecord record(int step, long stepMs, long computeMs, long commMs, long exposedMs) {
        return new StepRecord(step, 1f / (step + 1), stepMs * MS, computeMs * MS / 4, computeMs * MS / 2, computeMs * MS / 4,
                new CommTiming(commMs * MS, exposedMs * MS, (commMs - exposedMs) * MS, 4 << 20, 5, 0), false, Double.NaN, 1f);
    }

    @Test
    void meansLeaveOutWarmUpAndBusBandwidthFollowsNcclTests() {
        List<StepRecord> rs = List.of(record(0, 1000, 900, 500, 100), record(1, 40, 30, 20, 10), record(2, 60, 50, 20, 10));
        StepStats s = StepStats.of(rs, 1, 4);
        assertEquals(2, s.timedSteps());
        assertEquals(50.0, s.stepMs(), 1e-9);
        assertEquals(40.0, s.computeMs(), 1e-9);
        assertEquals(20.0, s.commMs(), 1e-9);
        assertEquals(0.5, s.hiddenShare(), 1e-9);
        double algBw = (4 << 20) / 0.020;
        assertEquals(algBw, s.algBwBytesPerSec(), 1e-3);
        assertEquals(algBw * 2 * 3 / 4, s.busBwBytesPerSec(), 1e-3);
    }

    @Test
    void theReportInlinesEChartsAndCarriesTheRunsData() {
        TrainSettings settings = new TrainSettings(2, 3, 4, 1, 0, DataType.BFLOAT16, true, 1 << 20, Sharding.REPLICATED, 1);
        List<StepRecord> rs = List.of(record(0, 100, 80, 30, 20), record(1, 50, 40, 20, 10), record(2, 70, 60, 20, 10));
        List<TraceEvent> ev = new ArrayList<>();
        long t = 1_000_000_000L;
        for (int r = 0; r < 2; r++) {
            for (int step = 0; step < 3; step++) {
                long s0 = t + step * 100 * MS + r * MS;
                ev.add(new TraceEvent(r, "step", "step " + step, s0, 60 * MS, ""));
                ev.add(new TraceEvent(r, "backward", "fc2", s0 + 10 * MS, 20 * MS, ""));
                ev.add(new TraceEvent(r, "allreduce bucket 0", "allreduce b0", s0 + 20 * MS, 25 * MS, "1 MiB </script> \"x\""));
            }
        }
        DemoSummary summary = new DemoSummary(ModelSpec.demo(), settings, "shm", new Evaluation(2f, 0.1), new Evaluation(0.5f, 0.8),
                new long[] {7, 7}, List.of(new DemoRank.Comparison(1, 1e-8f)), StepStats.of(rs, 1, 2));
        String html = ReportHtml.render(summary, rs, ev);
        assertTrue(html.contains("echarts") && html.length() > 500_000, "library inlined");
        assertFalse(html.contains("/*DATA*/") || html.contains("/*ECHARTS*/"));
        assertEquals(count(html, "<script>"), count(html, "</script>"), "every script element closes where meant, none early");
        // Median of the timed steps (1 and 2: 50 and 70 ms) is step 2; its spans of both ranks, not those of step 1.
        assertTrue(html.contains("Step 2 (median duration 70.00 ms on rank 0)"), html.substring(html.indexOf("\"timeline\"")));
        assertTrue(html.contains("\"rows\":[\"rank 0 · step\",\"rank 0 · backward\",\"rank 0 · allreduce bucket 0\",\"rank 1 · step\""), "rows");
        assertTrue(html.contains("\"start\":20.0000,\"end\":45.0000,\"name\":\"allreduce b0\",\"kind\":\"allreduce bucket\""), "relative to rank 0's step");
        assertTrue(html.contains("\"computeMs\":[80.000,40.000,60.000]"));
        assertTrue(html.contains("data is synthetic"));
    }

    private static int count(String html, String what) {
        return html.split(java.util.regex.Pattern.quote(what), -1).length - 1;
    }
}
