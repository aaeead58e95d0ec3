package dev.jccl.cli.tool;

import dev.jccl.trace.JsonWriter;

import java.util.List;

/**
 * One chart of a report page, as data the page's script turns into an ECharts option: a line chart
 * (series over a swept value or over time, with marked points: the knee, the collapses), a heat map
 * (the all-pairs matrix) or a graph (the data path, hop by hop).
 *
 * @param json the chart's description, written by the builders below
 */
public record Chart(String title, String note, String json) {
    public record Series(String name, double[] y) {}

    public record Node(String name, String detail, double x, double y) {}

    public record Edge(String from, String to, String label) {}

    public static Chart line(String title, String note, String xName, String yName, double[] x, List<Series> series,
                             List<Integer> marked, String markLabel) {
        StringBuilder b = new StringBuilder();
        JsonWriter w = new JsonWriter(b).beginObject().name("kind").value("line").name("xName").value(xName)
                .name("yName").value(yName);
        numbers(w.name("x"), x);
        w.name("series").beginArray();
        for (Series s : series) numbers(w.beginObject().name("name").value(s.name()).name("y"), s.y()).endObject();
        w.endArray().name("marked").beginArray();
        for (int i : marked) w.value(i);
        w.endArray().name("markLabel").value(markLabel).endObject();
        return new Chart(title, note, b.toString());
    }

    public static Chart heatmap(String title, String note, List<String> labels, double[][] values, String unit) {
        StringBuilder b = new StringBuilder();
        JsonWriter w = new JsonWriter(b).beginObject().name("kind").value("heatmap").name("unit").value(unit).name("labels").beginArray();
        for (String l : labels) w.value(l);
        w.endArray().name("cells").beginArray();
        for (int i = 0; i < values.length; i++) {
            for (int j = 0; j < values[i].length; j++) {
                if (!Double.isNaN(values[i][j])) w.beginArray().value(j).value(i).value(values[i][j], 4).endArray();
            }
        }
        w.endArray().endObject();
        return new Chart(title, note, b.toString());
    }

    public static Chart graph(String title, String note, List<Node> nodes, List<Edge> edges) {
        StringBuilder b = new StringBuilder();
        JsonWriter w = new JsonWriter(b).beginObject().name("kind").value("graph").name("nodes").beginArray();
        for (Node n : nodes) {
            w.beginObject().name("name").value(n.name()).name("detail").value(n.detail()).name("x").value(n.x(), 1)
                    .name("y").value(n.y(), 1).endObject();
        }
        w.endArray().name("edges").beginArray();
        for (Edge e : edges) w.beginObject().name("source").value(e.from()).name("target").value(e.to()).name("label").value(e.label()).endObject();
        w.endArray().endObject();
        return new Chart(title, note, b.toString());
    }

    private static JsonWriter numbers(JsonWriter w, double[] v) {
        w.beginArray();
        for (double d : v) w.value(d, 4);
        return w.endArray();
    }
}
