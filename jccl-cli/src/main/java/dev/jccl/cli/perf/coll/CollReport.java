package dev.jccl.cli.perf.coll;

import dev.jccl.trace.JsonWriter;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** Prints results in nccl-tests' columns, or as JSON for machines. */
final class CollReport {
    private CollReport() {}

    static void header(PrintStream out, CollOptions o, int ranks, String plan) {
        out.printf(Locale.ROOT, "# jccl perf %s: %d ranks, %s, %s, iters %d%s, warmup %d, check %s, %s%n", o.test().cliName(), ranks,
                o.type().ncclName(), o.test().reduces() ? o.op().name().toLowerCase(Locale.ROOT) : "no op", o.iters(),
                o.bytesPerSize() > 0 ? " (more at small sizes, until " + o.bytesPerSize() + " B moved, at most "
                        + CollOptions.MAX_SCALED_ITERS + ")" : "",
                o.warmup(), o.check() ? "on" : "off", o.blocking() ? "each call awaited" : "calls issued back to back");
        out.printf(Locale.ROOT, "# time: median over %d batches of ~%s of the time per call, slowest rank%s%n", o.batches(),
                millis(o.batchNs()), o.stats() ? "; then its mean, and p50/p99 of single calls" : "");
        if (!plan.isEmpty()) out.println("# " + plan);
        out.println("#");
        out.println("#                                                       out-of-place                       in-place          "
                + (o.stats() ? "  out-of-place (us)         in-place (us)       " : ""));
        out.println("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong"
                + (o.stats() ? "     mean      p50      p99     mean      p50      p99" : ""));
        out.println("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ");
    }

    static void row(PrintStream out, CollOptions o, CollResult r) {
        out.printf(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d  %s  %s%s%n", r.bytes(), r.count(), r.type(), r.redop(), r.root(),
                figures(r.outOfPlace()), figures(r.inPlace()), o.stats() ? stats(r.outOfPlace()) + stats(r.inPlace()) : "");
    }

    private static String millis(long ns) {
        return ns % 1_000_000 == 0 ? ns / 1_000_000 + " ms" : String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
    }

    private static String stats(CollResult.Figures f) {
        return String.format(Locale.ROOT, " %8.2f %8.2f %8.2f", f.meanUs(), f.p50Us(), f.p99Us());
    }

    private static String figures(CollResult.Figures f) {
        return String.format(Locale.ROOT, "%7.2f  %6.2f  %6.2f  %5s", f.timeUs(), f.algBw(), f.busBw(),
                f.wrong() < 0 ? "N/A" : Long.toString(f.wrong()));
    }

    static void footer(PrintStream out, List<CollResult> rs) {
        long wrong = rs.stream().mapToLong(r -> Math.max(0, r.outOfPlace().wrong()) + Math.max(0, r.inPlace().wrong())).sum();
        out.printf(Locale.ROOT, "# Out of bounds values : %d %s%n", wrong, wrong == 0 ? "OK" : "FAILED");
        out.printf(Locale.ROOT, "# Avg bus bandwidth    : %.4f%n", averageBusBw(rs));
        out.println("#");
    }

    static double averageBusBw(List<CollResult> rs) {
        return rs.stream().mapToDouble(r -> (r.outOfPlace().busBw() + r.inPlace().busBw()) / 2).average().orElse(0);
    }

    static void json(PrintStream out, CollOptions o, int ranks, List<CollResult> rs) {
        StringBuilder b = new StringBuilder();
        JsonWriter w = new JsonWriter(b).beginObject().name("test").value(o.test().cliName()).name("ranks").value(ranks)
                .name("type").value(o.type().ncclName()).name("op").value(o.op().name().toLowerCase(Locale.ROOT))
                .name("results").beginArray();
        for (CollResult r : rs) {
            w.beginObject().name("size").value(r.bytes()).name("count").value(r.count()).name("root").value(r.root());
            figures(w.name("out_of_place"), r.outOfPlace(), o.stats());
            figures(w.name("in_place"), r.inPlace(), o.stats());
            w.endObject();
        }
        w.endArray().name("avg_busbw").value(averageBusBw(rs), 4).endObject();
        out.println(b);
    }

    private static void figures(JsonWriter w, CollResult.Figures f, boolean stats) {
        w.beginObject().name("time_us").value(f.timeUs(), 3).name("algbw").value(f.algBw(), 4).name("busbw").value(f.busBw(), 4)
                .name("wrong");
        if (f.wrong() < 0) w.nullValue();
        else w.value(f.wrong());
        if (stats) w.name("mean_us").value(f.meanUs(), 3).name("p50_us").value(f.p50Us(), 3).name("p99_us").value(f.p99Us(), 3);
        w.endObject();
    }
}
