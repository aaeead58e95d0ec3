package dev.jccl.cli.tool;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.cli.perf.coll.CollOptions;
import dev.jccl.cli.perf.coll.CollResult;
import dev.jccl.cli.perf.coll.CollRunner;
import dev.jccl.cli.perf.coll.CollTest;
import dev.jccl.cli.tool.detect.Knee;
import dev.jccl.trace.JsonWriter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Busbw of allreduce against the values of one knob, each value on a communicator of its own made
 * with that knob, timed by the perf runner; the knee ({@link Knee}) of each size, and the
 * recommendation: the largest knee over the sizes, enough for all of them. {@code jccl sweep} and
 * doctor's QP and buffer checks are this code.
 */
public final class Sweep {
    /** One swept value: busbw (GB/s) per size. */
    public record Point(long value, double[] busbw) {}

    public record Result(SweptKnob knob, List<Long> sizes, List<Point> points, int[] kneeBySize, String[] why) {
        public long recommended() {
            int best = 0;
            for (int k : kneeBySize) best = Math.max(best, k);
            return points.get(best).value();
        }

        public Table table() {
            List<String> cols = new ArrayList<>(List.of(knob.knob()));
            for (long s : sizes) cols.add("busbw@" + dev.jccl.util.Sizes.formatBytes(s) + " (GB/s)");
            Table t = Table.of("allreduce busbw by " + knob.knob() + " (* = knee)", cols);
            for (int i = 0; i < points.size(); i++) {
                List<String> row = new ArrayList<>(List.of(knob.show(points.get(i).value())));
                for (int s = 0; s < sizes.size(); s++) {
                    row.add(String.format(Locale.ROOT, "%.3f%s", points.get(i).busbw()[s], kneeBySize[s] == i ? " *" : ""));
                }
                t = t.row(row.toArray());
            }
            return t;
        }

        public Chart chart() {
            double[] x = points.stream().mapToDouble(Point::value).toArray();
            List<Chart.Series> series = new ArrayList<>();
            for (int s = 0; s < sizes.size(); s++) {
                int sz = s;
                series.add(new Chart.Series("busbw at " + dev.jccl.util.Sizes.formatBytes(sizes.get(s)),
                        points.stream().mapToDouble(p -> p.busbw()[sz]).toArray()));
            }
            return Chart.line("busbw against " + knob.knob(), "allreduce; the pin marks the knee of the first size: " + why[0],
                    knob.knob(), "busbw (GB/s)", x, series, List.of(kneeBySize[0]), "knee");
        }

        public void json(JsonWriter w) {
            w.name("knob").value(knob.knob()).name("recommended").value(recommended()).name("sizes").beginArray();
            for (long s : sizes) w.value(s);
            w.endArray().name("points").beginArray();
            for (Point p : points) {
                w.beginObject().name("value").value(p.value()).name("busbw").beginArray();
                for (double b : p.busbw()) w.value(b, 4);
                w.endArray().endObject();
            }
            w.endArray().name("knee").beginArray();
            for (int s = 0; s < sizes.size(); s++) {
                w.beginObject().name("size").value(sizes.get(s)).name("value").value(points.get(kneeBySize[s]).value())
                        .name("why").value(why[s]).endObject();
            }
            w.endArray();
        }
    }

    private Sweep() {}

    /** Runs on every rank; every rank returns the same figures (the slowest rank's time). */
    public static Result run(ToolJob job, String namespace, SweptKnob knob, List<Long> values, List<Long> sizes, int iters,
                             Map<String, String> knobs) {
        List<Point> points = new ArrayList<>();
        boolean first = true;
        for (long v : values) {
            Map<String, String> k = new java.util.HashMap<>(knobs);
            k.put(knob.knob(), Long.toString(v));
            double[] bw = new double[sizes.size()];
            try (Communicator comm = job.communicator(namespace + "-" + knob.cliName() + "-" + v, k)) {
                for (int s = 0; s < sizes.size(); s++) {
                    CollOptions o = new CollOptions(CollTest.ALLREDUCE, sizes.get(s), sizes.get(s), 2, iters, 2, false, ReduceOp.SUM,
                            DataType.FLOAT32, 0, false, first ? 1_000_000_000L : 0, false, 64L << 20);
                    first = false;
                    List<CollResult> rs = CollRunner.run(comm, o, r -> { });
                    bw[s] = rs.getFirst().outOfPlace().busBw();
                }
            }
            points.add(new Point(v, bw));
        }
        int[] knee = new int[sizes.size()];
        String[] why = new String[sizes.size()];
        double[] x = points.stream().mapToDouble(Point::value).toArray();
        for (int s = 0; s < sizes.size(); s++) {
            int sz = s;
            Knee kn = Knee.find(x, points.stream().mapToDouble(p -> p.busbw()[sz]).toArray(), Knee.DEFAULT_GROWTH,
                    v -> knob.show((long) v));
            knee[s] = kn.index();
            why[s] = knob.show(points.get(kn.index()).value()) + ": " + kn.reason();
        }
        return new Result(knob, List.copyOf(sizes), points, knee, why);
    }
}
