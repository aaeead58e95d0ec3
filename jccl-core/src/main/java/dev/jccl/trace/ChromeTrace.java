package dev.jccl.trace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
        List<TraceEvent> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(TraceEvent::startNs));
        long originNs = sorted.isEmpty() ? 0 : sorted.getFirst().startNs();
        Map<Integer, Map<String, Integer>> tids = new LinkedHashMap<>();
        for (TraceEvent e : sorted) {
            Map<String, Integer> ofRank = tids.computeIfAbsent(e.rank(), r -> new LinkedHashMap<>());
            ofRank.putIfAbsent(e.track(), ofRank.size() + 1);
        }
        StringBuilder sb = new StringBuilder(128 + sorted.size() * 160);
        sb.append("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
        boolean first = true;
        for (var rank : tids.entrySet()) {
            first = meta(sb, first, rank.getKey(), 0, "process_name", "rank " + rank.getKey());
            first = meta(sb, first, rank.getKey(), 0, "process_sort_index", rank.getKey());
            for (var track : rank.getValue().entrySet()) {
                first = meta(sb, first, rank.getKey(), track.getValue(), "thread_name", track.getKey());
                first = meta(sb, first, rank.getKey(), track.getValue(), "thread_sort_index", track.getValue());
            }
        }
        for (TraceEvent e : sorted) {
            if (!first) sb.append(',');
            first = false;
            sb.append("\n{\"name\":").append(quote(e.name()))
                    .append(",\"cat\":").append(quote(category(e.track())))
                    .append(",\"ph\":\"").append(e.durNs() == 0 ? "i\",\"s\":\"t" : "X").append('"')
                    .append(",\"pid\":").append(e.rank())
                    .append(",\"tid\":").append(tids.get(e.rank()).get(e.track()))
                    .append(",\"ts\":").append(micros(e.startNs() - originNs));
            if (e.durNs() > 0) sb.append(",\"dur\":").append(micros(e.durNs()));
            if (!e.detail().isEmpty()) sb.append(",\"args\":{\"detail\":").append(quote(e.detail())).append('}');
            sb.append('}');
        }
        sb.append("\n]}\n");
        return sb.toString();
    }

    /** Writes the document to {@code file}, creating parent folders. */
    public static void write(Path file, List<TraceEvent> events) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        Files.writeString(file, toJson(events), StandardCharsets.UTF_8);
    }

    private static boolean meta(StringBuilder sb, boolean first, int pid, int tid, String what, Object value) {
        if (!first) sb.append(',');
        String arg = what.endsWith("sort_index") ? "sort_index" : "name";
        sb.append("\n{\"name\":\"").append(what).append("\",\"ph\":\"M\",\"pid\":").append(pid)
                .append(",\"tid\":").append(tid).append(",\"args\":{\"").append(arg).append("\":")
                .append(value instanceof String s ? quote(s) : value.toString()).append("}}");
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
