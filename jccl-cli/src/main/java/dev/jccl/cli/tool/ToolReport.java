package dev.jccl.cli.tool;

import dev.jccl.trace.JsonWriter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a toolkit command found, in the three forms every tool offers: a table on the terminal,
 * one JSON object ({@code --json}) and one self-contained HTML page ({@code --report FILE}). The
 * exit status is 1 when any finding FAILs.
 */
public final class ToolReport {
    private final String tool;
    private final String headline;
    private final List<Finding> findings = new ArrayList<>();
    private final List<Table> tables = new ArrayList<>();
    private final List<Chart> charts = new ArrayList<>();
    private final List<Consumer<JsonWriter>> extras = new ArrayList<>();

    public ToolReport(String tool, String headline) {
        this.tool = tool;
        this.headline = headline;
    }

    public ToolReport add(Finding f) {
        findings.add(f);
        return this;
    }

    public ToolReport add(Table t) {
        tables.add(t);
        return this;
    }

    public ToolReport add(Chart c) {
        charts.add(c);
        return this;
    }

    /** Tool-specific members of the JSON object (measured figures, the recommendation), written after the common ones. */
    public ToolReport json(Consumer<JsonWriter> members) {
        extras.add(members);
        return this;
    }

    public List<Finding> findings() {
        return List.copyOf(findings);
    }

    public Verdict verdict() {
        return findings.stream().map(Finding::verdict).reduce(Verdict.OK, Verdict::worst);
    }

    public int exitCode() {
        return verdict() == Verdict.FAIL ? 1 : 0;
    }

    public void printText(PrintStream out) {
        out.println("# jccl " + tool + ": " + headline);
        for (Table t : tables) {
            out.println();
            t.print(out);
        }
        if (!findings.isEmpty()) {
            out.println();
            Table checks = Table.of("checks", List.of("verdict", "check", "evidence", "fix"));
            for (Finding f : findings) checks = checks.row(f.verdict(), f.check(), f.evidence(), f.fix().isEmpty() ? "-" : f.fix());
            checks.print(out);
        }
        out.println();
        out.println("# verdict: " + verdict());
    }

    public String json() {
        StringBuilder b = new StringBuilder();
        JsonWriter w = new JsonWriter(b).beginObject().name("tool").value(tool).name("headline").value(headline)
                .name("verdict").value(verdict().name()).name("findings").beginArray();
        for (Finding f : findings) {
            w.beginObject().name("check").value(f.check()).name("verdict").value(f.verdict().name())
                    .name("evidence").value(f.evidence()).name("fix").value(f.fix()).endObject();
        }
        w.endArray().name("tables").beginArray();
        for (Table t : tables) {
            w.beginObject().name("title").value(t.title()).name("columns").beginArray();
            for (String c : t.columns()) w.value(c);
            w.endArray().name("rows").beginArray();
            for (List<String> r : t.rows()) {
                w.beginArray();
                for (String c : r) w.value(c);
                w.endArray();
            }
            w.endArray().endObject();
        }
        w.endArray();
        for (Consumer<JsonWriter> e : extras) e.accept(w);
        w.endObject();
        return b.toString();
    }

    /** Prints the table or the JSON, writes the page when asked, and returns the exit status. */
    public int emit(PrintStream out, boolean asJson, String reportFile) throws IOException {
        if (asJson) out.println(json());
        else printText(out);
        if (reportFile != null) {
            Path file = Path.of(reportFile).toAbsolutePath();
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            Files.writeString(file, html(), StandardCharsets.UTF_8);
            if (!asJson) out.println("# report: " + file);
        }
        return exitCode();
    }

    public String html() {
        StringBuilder b = new StringBuilder();
        // The charts' specs are JSON already; the page data is assembled around them.
        b.append("{\"report\":").append(json()).append(",\"charts\":[");
        for (int i = 0; i < charts.size(); i++) {
            Chart c = charts.get(i);
            if (i > 0) b.append(',');
            b.append("{\"title\":").append(JsonWriter.quote(c.title())).append(",\"note\":").append(JsonWriter.quote(c.note()))
                    .append(",\"spec\":").append(c.json()).append('}');
        }
        b.append("]}");
        return Echarts.resource("/dev/jccl/cli/tool/report.html").replace("/*ECHARTS*/", Echarts.inlineScript())
                .replace("/*TITLE*/", "jccl " + tool).replace("/*DATA*/", b.toString());
    }
}
