package dev.jccl.cli.train;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The progress bar rank 0 shows while training: one line redrawn with a carriage return. A rank's
 * standard output goes through the launcher line by line, so the bar is drawn on the controlling
 * terminal directly when there is one; without a terminal (CI, tests, a pipe) it prints a plain line
 * every tenth of the run instead.
 */
final class ProgressLine implements AutoCloseable {
    private static final int WIDTH = 24;
    private final int steps;
    private final PrintStream tty;
    private final PrintStream lines;
    private int lastDecile = -1;

    private ProgressLine(int steps, PrintStream tty, PrintStream lines) {
        this.steps = steps;
        this.tty = tty;
        this.lines = lines;
    }

    static ProgressLine open(int steps, PrintStream fallback) {
        PrintStream tty;
        try {
            tty = new PrintStream(new FileOutputStream("/dev/tty"), true, StandardCharsets.UTF_8);
        } catch (IOException | SecurityException e) {
            tty = null; // no controlling terminal: plain lines
        }
        return new ProgressLine(steps, tty, fallback);
    }

    void update(int step, float loss, double samplesPerSec, double stepMs, boolean skipped) {
        int done = step + 1;
        if (tty != null) {
            int filled = (int) ((long) done * WIDTH / steps);
            tty.printf(Locale.ROOT, "\r  step %4d/%d [%s%s] loss %.4f | %,.0f samples/s | %.1f ms/step%s ",
                    done, steps, "#".repeat(filled), "-".repeat(WIDTH - filled), loss, samplesPerSec, stepMs, skipped ? " | skipped" : "");
            tty.flush();
        } else {
            int decile = done * 10 / steps;
            if (decile > lastDecile) {
                lastDecile = decile;
                lines.printf(Locale.ROOT, "step %d/%d  loss %.4f  %,.0f samples/s  %.1f ms/step%n", done, steps, loss, samplesPerSec, stepMs);
            }
        }
    }

    @Override
    public void close() {
        if (tty != null) {
            tty.println();
            tty.close();
        }
    }
}
