package dev.jccl.trace;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * The JCCL_TRACE file a communicator writes for its rank when it is closed, for programs that do not
 * write the timeline themselves (the demo does: it merges every rank into the one file named by the
 * knob, and says so with {@link Timeline#takeOverWriting}).
 *
 * <p>Each rank gets its own file so ranks never overwrite each other: {@code %r} in the knob is
 * replaced by the rank (as in JCCL_DEBUG_FILE), otherwise {@code .rank<N>} goes before the extension
 * ({@code trace.json} becomes {@code trace.rank0.json}). A file holds the whole timeline so far, so a
 * later communicator of the same rank in the same process rewrites it with more.
 */
public final class TraceFile {
    private TraceFile() {}

    /** Where {@code rank}'s trace goes for the JCCL_TRACE value {@code configured}. */
    public static Path forRank(String configured, int rank) {
        if (configured.isBlank()) throw new IllegalArgumentException("JCCL_TRACE is empty: no trace file");
        if (rank < 0) throw new IllegalArgumentException("rank must be >= 0, got " + rank);
        String r = Integer.toString(rank);
        if (configured.contains("%r")) return Path.of(configured.replace("%r", r));
        Path path = Path.of(configured);
        String name = path.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String ranked = dot > 0 ? name.substring(0, dot) + ".rank" + r + name.substring(dot) : name + ".rank" + r;
        return path.resolveSibling(ranked);
    }

    /**
     * Writes {@code timeline} to its rank's file when JCCL_TRACE ({@code configured}) is set, the
     * timeline records, and nobody took over writing it. Returns the file, or null when nothing was
     * written. A file that cannot be written is a WARN, not an error: the program's results stand.
     */
    public static Path writeAtClose(String configured, Timeline timeline) {
        if (configured.isBlank() || !timeline.enabled() || timeline.writingTakenOver()) return null;
        Path file;
        List<TraceEvent> events = timeline.events();
        long dropped = timeline.dropped();
        try {
            file = forRank(configured, timeline.rank());
            ChromeTrace.write(file, events, dropped);
        } catch (IOException | InvalidPathException e) {
            Log.warn(Subsys.INIT, "rank %d: cannot write the JCCL_TRACE file for '%s': %s", timeline.rank(), configured, e);
            return null;
        }
        if (dropped > 0) {
            Log.warn(Subsys.INIT, "rank %d: trace %s misses %d events: the timeline keeps at most %d", timeline.rank(),
                    file, dropped, timeline.maxEvents());
        }
        Log.info(Subsys.INIT, "rank %d: trace written to %s (%d events)", timeline.rank(), file.toAbsolutePath(), events.size());
        return file;
    }
}
