package dev.jccl.cli.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Copies one stream of one rank to the launcher's stream, line by line, each line prefixed with
 * {@code [rank] }. A line is written with one locked print on the sink, so lines of different ranks
 * never interleave mid-line. A line longer than {@link #MAX_LINE_CHARS} is cut into pieces rather
 * than buffered without bound. Ends at the end of the stream (the rank exited and closed its pipe).
 */
final class OutputPump implements Runnable {
    static final int MAX_LINE_CHARS = 64 * 1024;
    /** Lines kept per rank when output is captured; later ones are dropped from the capture only. */
    static final int MAX_CAPTURED_LINES = 100_000;

    private final InputStream in;
    private final PrintStream sink;
    private final String prefix;
    private final List<String> capture; // null when not capturing; guarded by itself

    OutputPump(InputStream in, PrintStream sink, int rank, List<String> capture) {
        this(in, sink, "[" + rank + "] ", capture);
    }

    /** With an explicit line prefix; empty passes the rank's lines through as they are. */
    OutputPump(InputStream in, PrintStream sink, String prefix, List<String> capture) {
        this.in = in;
        this.sink = sink;
        this.prefix = prefix;
        this.capture = capture;
    }

    @Override
    public void run() {
        StringBuilder line = new StringBuilder();
        char[] buf = new char[8192];
        try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            int n;
            while ((n = r.read(buf)) >= 0) {
                for (int i = 0; i < n; i++) {
                    char c = buf[i];
                    if (c == '\n') {
                        emit(line);
                    } else {
                        line.append(c);
                        if (line.length() >= MAX_LINE_CHARS) emit(line);
                    }
                }
            }
        } catch (IOException e) {
            // The pipe broke because the rank is gone; whatever it wrote before is already out.
        }
        if (!line.isEmpty()) emit(line);
    }

    private void emit(StringBuilder line) {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') end--;
        String text = line.substring(0, end);
        line.setLength(0);
        if (text.equals(JvmCommand.INCUBATOR_WARNING)) return;
        synchronized (sink) {
            sink.print(prefix + text + System.lineSeparator());
            sink.flush();
        }
        if (capture != null) {
            synchronized (capture) {
                if (capture.size() < MAX_CAPTURED_LINES) capture.add(text);
            }
        }
    }
}
