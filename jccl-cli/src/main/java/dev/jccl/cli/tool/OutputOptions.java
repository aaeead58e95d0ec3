package dev.jccl.cli.tool;

import picocli.CommandLine.Option;

/** The output flags every toolkit command shares: one JSON object instead of the table, and the HTML page. */
public final class OutputOptions {
    @Option(names = "--json", description = "print one JSON object instead of the table")
    public boolean json;

    @Option(names = "--report", paramLabel = "FILE", description = "also write a self-contained HTML page with charts to FILE")
    public String report;

    /** Whether rank 0 should draw a progress bar (not when stdout is one JSON object). */
    public boolean progress() {
        return !json;
    }
}
