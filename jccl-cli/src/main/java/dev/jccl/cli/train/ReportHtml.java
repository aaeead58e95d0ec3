package dev.jccl.cli.train;

import dev.jccl.cli.Resources;
import dev.jccl.trace.JsonWriter;
import dev.jccl.trace.TraceEvent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code --report} page: one self-contained HTML file with the charting library (Apache ECharts,
 * from its WebJar on the class path) inlined, and the run's data as one JSON object. Charts: the loss
 * curve, per-step time split into compute, exposed and hidden communication, and the timeline of one
 * typical step (the one of median duration) across every rank's tracks.
 */
final class ReportHtml {
    private static final String TEMPLATE = "/dev/jccl/cli/train/report.html";

    private ReportHtml() {}

    static void write(Path file, DemoSummary summary, List<StepRecord> records, List<TraceEvent> events) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        Files.writeString(file, render(summary, records, events), StandardCharsets.UTF_8);
    }

    static String render(DemoSummary summary, List<StepRecord> records, List<TraceEvent> events) {
        return Resources.text(TEMPLATE).replace("/*ECHARTS*/", Resources.echartsForScriptElement()).replace("/*DATA*/", data(summary, records, events));
    }

    static String data(DemoSummary summary, List<StepRecord> records, List<TraceEvent> events) {
        StringBuilder sb = new StringBuilder();
        JsonWriter j = new JsonWriter(sb).beginObject();
        TrainSettings s = summary.settings();
        j.name("headline").value(String.format(Locale.ROOT,
                "%d ranks over %s, %d steps of %d samples, gradients as %s; data is synthetic (Gaussian blob mixture)",
                s.ranks(), summary.transport(), s.steps(), s.globalBatch(), s.precision().ncclName()));
        strings(j.name("summary"), summary.lines());
        numbers(j.name("steps"), records.stream().mapToDouble(StepRecord::step).toArray(), 0);
        double[] loss = records.stream().mapToDouble(StepRecord::loss).toArray();
        numbers(j.name("loss"), loss, 5);
        double[] ema = new double[loss.length];
        for (int i = 0; i < loss.length; i++) ema[i] = i == 0 ? loss[0] : 0.9 * ema[i - 1] + 0.1 * loss[i];
        numbers(j.name("lossEma"), ema, 5);
        numbers(j.name("computeMs"), records.stream().mapToDouble(r -> r.computeNs() / 1e6).toArray(), 3);
        numbers(j.name("exposedMs"), records.stream().mapToDouble(r -> r.comm().exposedNs() / 1e6).toArray(), 3);
        numbers(j.name("hiddenMs"), records.stream().mapToDouble(r -> r.comm().hiddenNs() / 1e6).toArray(), 3);
        numbers(j.name("warmup"), new double[] {s.warmupSteps()}, 0);
        timeline(j.name("timeline"), records, events, s.warmupSteps());
        j.endObject();
        return sb.toString();
    }

    /**
     * Events of every rank that start within that rank's span of the median-length timed step,
     * relative to the step's start on rank 0. Every bucket of a step completes before its optimizer
     * runs, so nothing of the step is lost and nothing of a neighbouring step slips in.
     */
    static void timeline(JsonWriter t, List<StepRecord> records, List<TraceEvent> events, int warmup) {
        t.beginObject();
        List<StepRecord> timed = records.subList(Math.min(warmup, records.size()), records.size());
        if (timed.isEmpty() || events.isEmpty()) {
            t.name("note").value("no timeline recorded");
            t.name("rows").beginArray().endArray();
            t.name("events").beginArray().endArray();
            t.endObject();
            return;
        }
        StepRecord median = timed.stream().sorted(Comparator.comparingLong(StepRecord::stepNs)).toList().get(timed.size() / 2);
        String stepName = "step " + median.step();
        // Each rank's own span of the step bounds its events: ranks drift apart by a few ms, and a
        // rank that starts the next step early must not lend its spans to this one.
        Map<Integer, TraceEvent> spanOf = new LinkedHashMap<>();
        for (TraceEvent e : events) if (e.track().equals("step") && e.name().equals(stepName)) spanOf.put(e.rank(), e);
        long origin = spanOf.containsKey(0) ? spanOf.get(0).startNs()
                : spanOf.values().stream().mapToLong(TraceEvent::startNs).min().orElse(0);
        Map<String, Integer> rows = new LinkedHashMap<>();
        List<TraceEvent> inside = events.stream().filter(e -> {
                    TraceEvent span = spanOf.get(e.rank());
                    return span != null && e.startNs() >= span.startNs() && e.startNs() <= span.endNs()
                            && (!e.track().equals("step") || e == span);
                }).sorted(Comparator.comparingInt(TraceEvent::rank).thenComparingLong(TraceEvent::startNs)).toList();
        // Rows grouped per rank: the step, then the training loop's tracks in the order they run, then the channels'.
        inside.stream().sorted(Comparator.comparingInt(TraceEvent::rank).thenComparingInt(e -> rowOrder(e.track()))
                        .thenComparing(TraceEvent::track))
                .forEach(e -> rows.putIfAbsent("rank " + e.rank() + " · " + e.track(), rows.size()));
        t.name("note").value(String.format(Locale.ROOT, "Step %d (median duration %.2f ms on rank 0), every rank's tracks; drag or scroll to zoom.",
                median.step(), median.stepNs() / 1e6));
        strings(t.name("rows"), new ArrayList<>(rows.keySet()));
        t.name("events").beginArray();
        for (TraceEvent e : inside) {
            t.beginObject().name("row").value(rows.get("rank " + e.rank() + " · " + e.track()))
                    .name("start").value((e.startNs() - origin) / 1e6, 4).name("end").value((e.endNs() - origin) / 1e6, 4)
                    .name("name").value(e.name()).name("kind").value(e.track().replaceAll(" \\d+$", ""))
                    .name("detail").value(e.detail()).endObject();
        }
        t.endArray().endObject();
    }

    private static void strings(JsonWriter w, List<String> values) {
        w.beginArray();
        for (String v : values) w.value(v);
        w.endArray();
    }

    private static void numbers(JsonWriter w, double[] values, int decimals) {
        w.beginArray();
        for (double v : values) w.value(v, decimals);
        w.endArray();
    }

    private static int rowOrder(String track) {
        if (track.equals("step")) return 0;
        if (track.equals("forward")) return 1;
        if (track.equals("backward")) return 2;
        if (track.startsWith("allreduce") || track.startsWith("reduce-scatter")) return 3;
        if (track.equals("optimizer")) return 4;
        return 5;
    }
}
