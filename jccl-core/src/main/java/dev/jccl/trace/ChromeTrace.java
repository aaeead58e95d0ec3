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
import java.util.Locale;
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
        out.append("{\"displayTimeUnit\":\"ms\",");
        if (droppedEvents > 0) {
            out.append("\"otherData\":{\"droppedEvents\":").append(Long.toString(droppedEvents))
                    .append(",\"note\":\"the timeline was full; later events were not recorded\"},");
        }
        out.append("\"traceEvents\":[");
        boolean first = true;
        for (var rank : tids.entrySet()) {
            first = meta(out, first, rank.getKey(), 0, "process_name", "rank " + rank.getKey());
            first = meta(out, first, rank.getKey(), 0, "process_sort_index", rank.getKey());
            for (var track : rank.getValue().entrySet()) {
                first = meta(out, first, rank.getKey(), track.getValue(), "thread_name", track.getKey());
                first = meta(out, first, rank.getKey(), track.getValue(), "thread_sort_index", track.getValue());
            }
        }
        for (TraceEvent e : sorted) {
            if (!first) out.append(',');
            first = false;
            out.append("\n{\"name\":").append(quote(e.name()))
                    .append(",\"cat\":").append(quote(category(e.track())))
                    .append(",\"ph\":\"").append(e.durNs() == 0 ? "i\",\"s\":\"t" : "X").append('"')
                    .append(",\"pid\":").append(Integer.toString(e.rank()))
                    .append(",\"tid\":").append(Integer.toString(tids.get(e.rank()).get(e.track())))
                    .append(",\"ts\":").append(micros(e.startNs() - originNs));
            if (e.durNs() > 0) out.append(",\"dur\":").append(micros(e.durNs()));
            if (!e.detail().isEmpty()) out.append(",\"args\":{\"detail\":").append(quote(e.detail())).append('}');
            out.append('}');
        }
        out.append("\n]}\n");
    }

    private static boolean meta(Appendable out, boolean first, int pid, int tid, String what, Object value) throws IOException {
        if (!first) out.append(',');
        String arg = what.endsWith("sort_index") ? "sort_index" : "name";
        out.append("\n{\"name\":\"").append(what).append("\",\"ph\":\"M\",\"pid\":").append(Integer.toString(pid))
                .append(",\"tid\":").append(Integer.toString(tid)).append(",\"args\":{\"").append(arg).append("\":")
                .append(value instanceof String str ? quote(str) : value.toString()).append("}}");
        return false;
    }

    /** The first word of a track ("allreduce bucket 3" -> "allreduce"), so Perfetto can filter by kind. */
    private static String category(String track) {
        int sp = track.indexOf(' ');
        return sp < 0 ? track : track.substring(0, sp);
    }

    private static String micros(long ns) {
        return String.format(Locale.ROOT, "%.3f", ns / 1000.0);
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }
}
