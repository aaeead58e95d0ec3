package dev.jccl.trace;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A recorder of timed spans for one rank, written out in Chrome's Trace Event format by
 * {@link ChromeTrace}. Layers that do work worth seeing (the training loop, buckets, the collective
 * executor's chunk transfers and reductions) record spans on named tracks.
 *
 * <p>Thread-safe: any thread may record; events go into a lock-free queue. Cheap when disabled:
 * {@link #DISABLED} drops everything after one field read, so callers guard costly argument building
 * with {@link #enabled()}.
 *
 * <p>Clock: spans are measured with {@link System#nanoTime()} (monotonic) and placed on the epoch axis
 * through one origin pair taken per JVM, so the spans of ranks in different processes line up to within
 * the wall clock's resolution.
 */
public final class Timeline {
    /** A timeline that records nothing. */
    public static final Timeline DISABLED = new Timeline(-1, false);

    private static final long ORIGIN_NANO = System.nanoTime();
    private static final ConcurrentHashMap<Integer, Timeline> REGISTERED = new ConcurrentHashMap<>();
    private static final long ORIGIN_EPOCH_NS = epochNanos(Instant.now());

    /**
     * Events kept per timeline (about 100 bytes each); later ones are counted and dropped, so a long
     * run with JCCL_TRACE set cannot grow without bound.
     */
    public static final int MAX_EVENTS = 2_000_000;

    private final int rank;
    private final boolean enabled;
    private final int maxEvents;
    private final ConcurrentLinkedQueue<TraceEvent> events = new ConcurrentLinkedQueue<>();
    private final AtomicInteger kept = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean writingTakenOver;

    private Timeline(int rank, boolean enabled) {
        this(rank, enabled, MAX_EVENTS);
    }

    private Timeline(int rank, boolean enabled, int maxEvents) {
        this.rank = rank;
        this.enabled = enabled;
        this.maxEvents = maxEvents;
    }

    /** A recording timeline that keeps at most {@code maxEvents} (for tests of the limit). */
    static Timeline forRank(int rank, int maxEvents) {
        if (rank < 0) throw new IllegalArgumentException("rank must be >= 0, got " + rank);
        return new Timeline(rank, true, maxEvents);
    }

    /** A recording timeline for {@code rank}. */
    public static Timeline forRank(int rank) {
        if (rank < 0) throw new IllegalArgumentException("rank must be >= 0, got " + rank);
        return new Timeline(rank, true);
    }

    /**
     * The process-wide recording timeline of {@code rank}, made on first use. Layers that do not share
     * an object (the training loop and the collective runtime under it) record into the same one by
     * asking for it by rank when tracing is on (JCCL_TRACE).
     */
    public static Timeline registered(int rank) {
        if (rank < 0) throw new IllegalArgumentException("rank must be >= 0, got " + rank);
        return REGISTERED.computeIfAbsent(rank, Timeline::forRank);
    }

    public boolean enabled() {
        return enabled;
    }

    public int rank() {
        return rank;
    }

    /** The clock spans are measured with (monotonic nanoseconds, same origin as {@link System#nanoTime()}). */
    public static long nowNs() {
        return System.nanoTime();
    }

    /** Records a span measured with {@link #nowNs()} from {@code startNs} to {@code endNs}. */
    public void complete(String track, String name, long startNs, long endNs) {
        complete(track, name, startNs, endNs, "");
    }

    /** Records a span with a line of detail (bytes, peer, chunk index). */
    public void complete(String track, String name, long startNs, long endNs, String detail) {
        if (!enabled) return;
        long dur = Math.max(0, endNs - startNs);
        add(new TraceEvent(rank, track, name, toEpochNs(startNs), dur, detail));
    }

    /** Records a moment (a skipped step, a loss-scale change). */
    public void instant(String track, String name, String detail) {
        if (!enabled) return;
        add(new TraceEvent(rank, track, name, toEpochNs(nowNs()), 0, detail));
    }

    private void add(TraceEvent e) {
        if (kept.incrementAndGet() > maxEvents) {
            kept.decrementAndGet();
            dropped.incrementAndGet();
            return;
        }
        events.add(e);
    }

    /** How many events this timeline keeps at most. */
    public int maxEvents() {
        return maxEvents;
    }

    /** Events not kept because the timeline was full. */
    public long dropped() {
        return dropped.get();
    }

    /**
     * Says that the caller writes this timeline out itself (the demo merges every rank's into one
     * file), so a communicator that records into it does not write its own JCCL_TRACE file at close.
     */
    public void takeOverWriting() {
        writingTakenOver = true;
    }

    /** Whether {@link #takeOverWriting} was called. */
    public boolean writingTakenOver() {
        return writingTakenOver;
    }

    /** Starts a span that ends when the returned handle is closed (try-with-resources). */
    public Span begin(String track, String name) {
        return new Span(this, track, name, enabled ? nowNs() : 0);
    }

    /** A snapshot of what was recorded so far, ordered by start time. */
    public List<TraceEvent> events() {
        List<TraceEvent> out = new ArrayList<>(events);
        out.sort(Comparator.comparingLong(TraceEvent::startNs));
        return out;
    }

    /** Drops everything recorded so far (for example the warm-up steps). */
    public void clear() {
        events.clear();
        kept.set(0);
    }

    /** Maps a {@link #nowNs()} reading to epoch nanoseconds. */
    public static long toEpochNs(long monotonicNs) {
        return ORIGIN_EPOCH_NS + (monotonicNs - ORIGIN_NANO);
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** An open span; closing it records it. Not thread-safe: close it on one thread, once. */
    public static final class Span implements AutoCloseable {
        private final Timeline timeline;
        private final String track;
        private final String name;
        private final long startNs;
        private boolean closed;

        private Span(Timeline timeline, String track, String name, long startNs) {
            this.timeline = timeline;
            this.track = track;
            this.name = name;
            this.startNs = startNs;
        }

        @Override
        public void close() {
            if (closed || !timeline.enabled) return;
            closed = true;
            timeline.complete(track, name, startNs, nowNs());
        }
    }
}
