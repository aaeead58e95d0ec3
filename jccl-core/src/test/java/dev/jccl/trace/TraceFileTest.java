package dev.jccl.trace;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class TraceFileTest {
    @TempDir
    Path dir;

    @Test
    void eachRankGetsItsOwnFile() {
        assertEquals(Path.of("trace.rank0.json"), TraceFile.forRank("trace.json", 0));
        assertEquals(Path.of("/tmp/x/run.1.rank12.json"), TraceFile.forRank("/tmp/x/run.1.json", 12));
        assertEquals(Path.of("out/trace.rank3"), TraceFile.forRank("out/trace", 3));
        assertEquals(Path.of(".trace.rank1"), TraceFile.forRank(".trace", 1));
        assertEquals(Path.of("t-2/r2.json"), TraceFile.forRank("t-%r/r%r.json", 2)); // as JCCL_DEBUG_FILE
        assertThrows(IllegalArgumentException.class, () -> TraceFile.forRank(" ", 0));
        assertThrows(IllegalArgumentException.class, () -> TraceFile.forRank("t.json", -1));
    }

    @Test
    void writesTheTimelineOfItsRankAsChromeJson() throws IOException {
        Timeline t = Timeline.forRank(2);
        long now = Timeline.nowNs();
        t.complete("ch0 send", "chunk 0 -> rank 1", now, now + 1_000, "4096 B");
        t.instant("ch0 send", "mark", "");
        Path file = TraceFile.writeAtClose(dir.resolve("sub/trace.json").toString(), t);
        assertEquals(dir.resolve("sub/trace.rank2.json"), file);
        Map<?, ?> doc = (Map<?, ?>) MiniJson.parse(Files.readString(file));
        assertFalse(doc.containsKey("otherData"), "nothing was dropped");
        List<?> events = (List<?>) doc.get("traceEvents");
        assertTrue(events.stream().map(e -> (Map<?, ?>) e)
                .anyMatch(e -> "chunk 0 -> rank 1".equals(e.get("name")) && e.get("pid").equals(2.0) && "X".equals(e.get("ph"))), events.toString());
        try (var files = Files.list(dir.resolve("sub"))) {
            assertEquals(List.of("trace.rank2.json"), files.map(f -> f.getFileName().toString()).toList(), "no temporary left");
        }
    }

    @Test
    void aFullTimelineSaysInTheFileHowManyEventsItDropped() throws IOException {
        Timeline t = Timeline.forRank(0, 3);
        for (int i = 0; i < 5; i++) t.complete("ch0 reduce", "chunk " + i, i, i + 10);
        Path file = TraceFile.writeAtClose(dir.resolve("full.json").toString(), t);
        Map<?, ?> doc = (Map<?, ?>) MiniJson.parse(Files.readString(file));
        assertEquals(2.0, ((Map<?, ?>) doc.get("otherData")).get("droppedEvents"), doc.toString());
        assertEquals(3 + 4, ((List<?>) doc.get("traceEvents")).size(), "3 spans and the process and track names");
    }

    @Test
    void writesNothingWhenOffDisabledOrTakenOver() throws IOException {
        Timeline t = Timeline.forRank(0);
        t.complete("x", "y", 1, 2);
        assertNull(TraceFile.writeAtClose("", t));
        assertNull(TraceFile.writeAtClose(dir.resolve("t.json").toString(), Timeline.DISABLED));
        t.takeOverWriting();
        assertNull(TraceFile.writeAtClose(dir.resolve("t.json").toString(), t));
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void anUnwritablePathIsReportedNotThrown() throws IOException {
        Path blocker = Files.writeString(dir.resolve("file"), "x"); // a file where a folder is needed
        Timeline t = Timeline.forRank(0);
        t.complete("x", "y", 1, 2);
        assertNull(TraceFile.writeAtClose(blocker.resolve("t.json").toString(), t));
    }
}
