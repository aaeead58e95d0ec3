package dev.jccl.cli.tool;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** A titled table of text cells: printed with aligned columns on the terminal, and as an HTML table in the report. */
public record Table(String title, List<String> columns, List<List<String>> rows) {
    public Table {
        columns = List.copyOf(columns);
        rows = rows.stream().map(List::copyOf).toList();
    }

    public static Table of(String title, List<String> columns) {
        return new Table(title, columns, new ArrayList<>());
    }

    public Table row(Object... cells) {
        List<List<String>> more = new ArrayList<>(rows);
        more.add(java.util.Arrays.stream(cells).map(String::valueOf).toList());
        return new Table(title, columns, more);
    }

    public void print(PrintStream out) {
        int[] w = new int[columns.size()];
        for (int c = 0; c < w.length; c++) {
            w[c] = columns.get(c).length();
            for (List<String> r : rows) if (c < r.size()) w[c] = Math.max(w[c], r.get(c).length());
        }
        if (!title.isEmpty()) out.println("# " + title);
        out.println(line(columns, w));
        for (List<String> r : rows) out.println(line(r, w));
    }

    private static String line(List<String> cells, int[] w) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            if (c > 0) b.append("  ");
            String cell = cells.get(c);
            b.append(c == cells.size() - 1 ? cell : String.format("%-" + w[c] + "s", cell));
        }
        return b.toString().stripTrailing();
    }
}
