package dev.jccl.cli.launch;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(10)
@Tag("unit")
class OutputPumpTest {
    private static ByteArrayInputStream text(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void prefixesEveryLineAndKeepsTheLastUnterminatedOne() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> captured = new ArrayList<>();
        new OutputPump(text("a\r\nb\n\nlast"), new PrintStream(out, true, StandardCharsets.UTF_8), 5, captured).run();
        String nl = System.lineSeparator();
        assertEquals("[5] a" + nl + "[5] b" + nl + "[5] " + nl + "[5] last" + nl, out.toString(StandardCharsets.UTF_8));
        assertEquals(List.of("a", "b", "", "last"), captured);
    }

    @Test
    void endlessLinesAreCutInsteadOfBufferedWithoutBound() {
        List<String> captured = new ArrayList<>();
        String longLine = "x".repeat(OutputPump.MAX_LINE_CHARS + 10);
        new OutputPump(text(longLine + "\n"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), 0, captured).run();
        assertEquals(2, captured.size());
        assertEquals(OutputPump.MAX_LINE_CHARS, captured.get(0).length());
        assertEquals(10, captured.get(1).length());
    }

    @Test
    void linesOfConcurrentRanksNeverInterleave() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(out, false, StandardCharsets.UTF_8);
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 2000; i++) body.append("line ").append(i).append(" ").append("y".repeat(200)).append('\n');
        List<Thread> pumps = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            pumps.add(Thread.ofPlatform().start(new OutputPump(text(body.toString()), sink, r, null)));
        }
        for (Thread t : pumps) t.join();
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\\R");
        assertEquals(4 * 2000, lines.length);
        for (String line : lines) assertTrue(line.matches("\\[[0-3]] line \\d+ y{200}"), line);
    }
}
