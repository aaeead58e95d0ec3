package dev.jccl.cli.plan;

import dev.jccl.cli.Resources;
import dev.jccl.trace.JsonWriter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code jccl plan --report FILE}: one self-contained HTML page (ECharts inlined) with the plan's
 * lines and a chart of one step's sync time against the rank count (more hosts of the same size),
 * per algorithm, from the closed form.
 */
final class PlanHtml {
    private static final String TEMPLATE = "/dev/jccl/cli/plan/report.html";

    private PlanHtml() {}

    static void write(Path file, PlanOutcome o, List<SimRow> sims) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        Files.writeString(file, render(o, sims), StandardCharsets.UTF_8);
    }

    static String render(PlanOutcome o, List<SimRow> sims) {
        StringBuilder data = new StringBuilder();
        JsonWriter j = new JsonWriter(data).beginObject();
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        PlanText.print(new java.io.PrintStream(text, true, StandardCharsets.UTF_8), o, sims);
        j.name("text").value(text.toString(StandardCharsets.UTF_8));
        PlanJson.chart(j.name("chart"), o.chart());
        j.name("choice").value(o.plan().choice());
        j.endObject();
        // The data goes inside <script> too; escape the one sequence that would end it.
        return Resources.text(TEMPLATE).replace("/*ECHARTS*/", Resources.echartsForScriptElement())
                .replace("/*DATA*/", data.toString().replace("</", "<\\/"));
    }
}
