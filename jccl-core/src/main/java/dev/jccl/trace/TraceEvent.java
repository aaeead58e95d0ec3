package dev.jccl.trace;

import java.util.Objects;

/**
 * One recorded span of a {@link Timeline}: on which rank and track it happened, what it was, and when.
 * Times are wall-clock nanoseconds since the Unix epoch, so spans recorded by different processes on
 * one host line up on a common axis.
 *
 * @param rank     the rank that recorded it (Chrome trace "pid")
 * @param track    the row it is drawn on, e.g. {@code backward}, {@code allreduce bucket 0}, {@code ch0 send}
 * @param name     what happened, e.g. {@code fc2}, {@code bucket 0 (4.0 MiB)}
 * @param startNs  epoch nanoseconds at the start
 * @param durNs    length in nanoseconds; 0 for an instant
 * @param detail   free text shown with the event (bytes, peer, chunk); may be empty
 */
public record TraceEvent(int rank, String track, String name, long startNs, long durNs, String detail) {
    public TraceEvent {
        Objects.requireNonNull(track, "track");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(detail, "detail");
        if (durNs < 0) throw new IllegalArgumentException("negative duration " + durNs + " ns for " + track + "/" + name);
    }

    public long endNs() {
        return startNs + durNs;
    }
}
