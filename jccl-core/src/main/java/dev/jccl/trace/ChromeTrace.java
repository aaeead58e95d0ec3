package dev.jccl.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link TraceEvent}s in Chrome's Trace Event format (the JSON object form), which Perfetto
 * and chrome://tracing open. Each rank becomes a process ({@code pid} = rank, named "rank N"), each
 * track a thread of it ({@code tid} numbered in the order tracks first appear, so forward, backward
 * and the first bucket sit above later tracks). Spans are "complete" events ({@code ph: X}); instants
 * are {@code ph: i}. Timestamps are microseconds from the earliest event.
 */
public final class ChromeTrace {
    private ChromeTrace() {}

    /** The whole document for events of any number of ranks. */
    public static String toJson(List<TraceEvent> events) {
        return toJson(events, 0);
    }

    /** The whole document; {@code droppedEvents} > 0 is noted in its {@code otherData}. */
    public static String toJson(List<TraceEvent> events, long droppedEvents) {
        StringBuilder sb = new StringBuilder(128 + events.size() * 160);
        try {
            append(sb, events, droppedEvents);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringBuilder does not throw
        }
        return sb.toString();
    }

    /** Writes the document to {@code file}, creating parent folders. */
    public static void write(Path file, List<TraceEvent> events) throws IOException {
        write(file, events, 0);
    }

    /**
     * Writes the document to {@code file}, creating parent folders. Streamed (a long run's trace is
     * never one string in memory) into a temporary file that then replaces {@code file}, so a reader,
     * or a second writer of the same file, never sees half a document.
     */
    public static void write(Path file, List<TraceEvent> events, long droppedEvents) throws IOException {
        Path target = file.toAbsolutePath();
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                append(w, events, droppedEvents);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void append(Appendable out, List<TraceEvent> events, long droppedEvents) throws IOException {
        List<TraceEvent> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(TraceEvent::startNs));
        long originNs = sorted.isEmpty() ? 0 : sorted.getFirst().startNs();
        Map<Integer, Map<String, Integer>> tids = new LinkedHashMap<>();
        for (TraceEvent e : sorted) {
            Map<String, Integer> ofRank = tids.computeIfAbsent(e.rank(), r -> new LinkedHashMap<>());
            ofRank.putIfAbsent(e.track(), ofRank.size() + 1);
        }
        JsonWriter w = new JsonWriter(out).beginObject().name("displayTimeUnit").value("ms");
        if (droppedEvents > 0) {
            w.name("otherData").beginObject().name("droppedEvents").value(droppedEvents)
                    .name("note").value("the timeline was full; later events were not recorded").endObject();
        }
        w.name("traceEvents").beginArrayLinePerElement();
        for (var rank : tids.entrySet()) {
            meta(w, rank.getKey(), 0, "process_name").name("name").value("rank " + rank.getKey()).endObject().endObject();
            meta(w, rank.getKey(), 0, "process_sort_index").name("sort_index").value(rank.getKey()).endObject().endObject();
            for (var track : rank.getValue().entrySet()) {
                meta(w, rank.getKey(), track.getValue(), "thread_name").name("name").value(track.getKey()).endObject().endObject();
                meta(w, rank.getKey(), track.getValue(), "thread_sort_index").name("sort_index").value(track.getValue())
                        .endObject().endObject();
            }
        }
        for (TraceEvent e : sorted) {
            w.beginObject().name("name").value(e.name()).name("cat").value(category(e.track()));
            if (e.durNs() == 0) w.name("ph").value("i").name("s").value("t");
            else w.name("ph").value("X");
            w.name("pid").value(e.rank()).name("tid").value(tids.get(e.rank()).get(e.track()))
                    .name("ts").value(micros(e.startNs() - originNs), 3);
            if (e.durNs() > 0) w.name("dur").value(micros(e.durNs()), 3);
            if (!e.detail().isEmpty()) w.name("args").beginObject().name("detail").value(e.detail()).endObject();
            w.endObject();
        }
        w.endArray().endObject();
        out.append('\n');
    }

    /** A metadata event up to its open {@code args} object; the caller writes the one argument and closes both. */
    private static JsonWriter meta(JsonWriter w, int pid, int tid, String what) {
        return w.beginObject().name("name").value(what).name("ph").value("M").name("pid").value(pid).name("tid").value(tid)
                .name("args").beginObject();
    }

    /** The first word of a track ("allreduce bucket 3" -> "allreduce"), so Perfetto can filter by kind. */
    private static String category(String track) {
        int sp = track.indexOf(' ');
        return sp < 0 ? track : track.substring(0, sp);
    }

    private static double micros(long ns) {
        return ns / 1000.0;
    }
}
