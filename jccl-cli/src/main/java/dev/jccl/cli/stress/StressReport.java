package dev.jccl.cli.stress;

import dev.jccl.cli.tool.Chart;
import dev.jccl.cli.tool.Finding;
import dev.jccl.cli.tool.Soak;
import dev.jccl.cli.tool.Table;
import dev.jccl.cli.tool.ToolReport;
import dev.jccl.cli.tool.detect.Collapses;
import dev.jccl.cli.tool.detect.Stats;
import dev.jccl.util.Sizes;

import java.util.List;
import java.util.Locale;

/** The verdict of a soak: correctness, collapses and their period; shared by stress and doctor's soak check. */
public final class StressReport {
    private StressReport() {}

    public static ToolReport of(Soak.Result r, int ranks, long bytes, double fraction, String csv) {
        double[] s = r.series();
        ToolReport rep = new ToolReport("stress", String.format(Locale.ROOT, "%d ranks, allreduce %s, %d intervals of %.3g s, %d calls",
                ranks, Sizes.formatBytes(bytes), s.length, r.intervalS(), r.calls()));
        Table t = Table.of("summary", List.of("what", "value"))
                .row("median busbw (GB/s)", String.format(Locale.ROOT, "%.3f", Stats.median(s)))
                .row("calls / checked", r.calls() + " / " + r.checks())
                .row("collapses (< " + fraction + " x running median)", r.collapses().size())
                .row("csv", csv);
        rep.add(t);
        findings(rep, r, fraction);
        double[] x = r.intervals().stream().mapToDouble(Soak.Interval::endS).toArray();
        rep.add(chart(r));
        rep.json(w -> {
            w.name("interval_s").value(r.intervalS(), 3).name("calls").value(r.calls()).name("wrong").value(r.wrong())
                    .name("collapses").beginArray();
            for (int i : r.collapses()) w.value(x[i], 3);
            w.endArray().name("periodic").value(r.periodicity().periodic()).name("period_s").value(r.periodicity().periodS(), 2)
                    .name("busbw").beginArray();
            for (double v : s) w.value(v, 4);
            w.endArray();
        });
        return rep;
    }

    /** Busbw per interval with the running median, collapses pinned. */
    public static Chart chart(Soak.Result r) {
        double[] s = r.series();
        double[] x = r.intervals().stream().mapToDouble(Soak.Interval::endS).toArray();
        return Chart.line("busbw per interval", "pins mark collapses; the second line is the running median they are compared with",
                "time (s)", "busbw (GB/s)", x, List.of(new Chart.Series("busbw", s), new Chart.Series("running median", Collapses.reference(s))),
                r.collapses(), "collapse");
    }

    /** The checks a soak contributes (doctor adds these to its own). */
    public static void findings(ToolReport rep, Soak.Result r, double fraction) {
        if (r.wrong() > 0) {
            rep.add(Finding.fail("correctness", r.wrong() + " wrong elements in " + r.checks() + " checked calls",
                    "rerun with JCCL_REDUCE_KERNEL=scalar and JCCL_DEBUG=INFO; report the data path"));
        } else {
            rep.add(Finding.ok("correctness", r.checks() + " checked calls, all exact"));
        }
        double[] x = r.intervals().stream().mapToDouble(Soak.Interval::endS).toArray();
        String when = String.join(", ", r.collapses().stream().limit(8).map(i -> String.format(Locale.ROOT, "%.0f s", x[i])).toList())
                + (r.collapses().size() > 8 ? ", ..." : "");
        if (r.periodicity().periodic()) {
            rep.add(Finding.fail("periodic collapse", r.periodicity().reason() + "; at " + when,
                    "look for something on that period: a timer, a checkpoint, a cron job, flow-control pauses (ECN, PFC)"));
        } else if (!r.collapses().isEmpty()) {
            rep.add(Finding.warn("collapse", r.collapses().size() + " interval(s) below " + fraction + " x the running median, at " + when
                    + "; " + r.periodicity().reason(), "rerun longer to see whether they recur"));
        } else {
            rep.add(Finding.ok("collapse", "no interval below " + fraction + " x the running median"));
        }
    }
}
