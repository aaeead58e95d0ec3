package dev.jccl.trace;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A WARN line that someone outside the job can trigger at will (a refused connection, a malformed
 * frame from a port scanner): at most {@code burst} lines per window are written, the rest are
 * counted, and the next line written says how many were left out, e.g. "(37 similar refusals
 * suppressed in the last 10 s)". {@link #flush} writes a pending count on its own, so a scan that
 * stops is still accounted for when its listener closes. Thread-safe; a suppressed line costs a lock
 * and a counter, no formatting.
 */
public final class RateLimitedWarning {
    /** Lines written per window before the rest are only counted. */
    public static final int DEFAULT_BURST = 5;
    public static final long DEFAULT_WINDOW_NS = TimeUnit.SECONDS.toNanos(10);

    private final String what;
    private final int burst;
    private final long windowNs;
    private final LongSupplier clock;
    private final Consumer<String> sink;
    private boolean started;     // guarded by this
    private long windowStartNs;  // guarded by this
    private int writtenInWindow; // guarded by this
    private long suppressed;     // guarded by this: since the last line written
    private long suppressedSinceNs; // guarded by this: when the first of them came
    private long suppressedTotal;   // guarded by this
    private long total;             // guarded by this

    /** Warnings about {@code what} (a plural noun: "refusals") on subsystem {@code s}. */
    public RateLimitedWarning(Subsys s, String what) {
        this(what, DEFAULT_BURST, DEFAULT_WINDOW_NS, System::nanoTime, line -> Log.warn(s, "%s", line));
    }

    /** For tests: an injected clock and where lines go. */
    public RateLimitedWarning(String what, int burst, long windowNs, LongSupplier clock, Consumer<String> sink) {
        if (burst < 1 || windowNs <= 0) throw new IllegalArgumentException("burst " + burst + ", window " + windowNs + " ns");
        this.what = what;
        this.burst = burst;
        this.windowNs = windowNs;
        this.clock = clock;
        this.sink = sink;
    }

    /** Writes the formatted line unless this window's burst is used up; then only counts it. */
    public void warn(String fmt, Object... args) {
        String note;
        synchronized (this) {
            long now = clock.getAsLong();
            total++;
            if (!started || now - windowStartNs >= windowNs) {
                started = true;
                windowStartNs = now;
                writtenInWindow = 0;
            }
            if (writtenInWindow >= burst) {
                if (suppressed++ == 0) suppressedSinceNs = now;
                suppressedTotal++;
                return;
            }
            writtenInWindow++;
            note = takeNote(now);
        }
        String line = args.length == 0 ? fmt : String.format(Locale.ROOT, fmt, args);
        sink.accept(note == null ? line : line + " " + note);
    }

    /** Writes the count of lines suppressed since the last one written, if any. */
    public void flush() {
        String note;
        synchronized (this) {
            note = takeNote(clock.getAsLong());
        }
        if (note != null) sink.accept(note.substring(1, note.length() - 1));
    }

    /** Lines asked for since this object was made, written or not. */
    public synchronized long total() {
        return total;
    }

    /** Lines left out since this object was made. */
    public synchronized long suppressedTotal() {
        return suppressedTotal;
    }

    /** Caller holds the monitor. "(N similar ... suppressed in the last S s)", or null when none were. */
    private String takeNote(long now) {
        if (suppressed == 0) return null;
        long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(now - suppressedSinceNs + 999_999_999L));
        String note = "(" + suppressed + " similar " + what + " suppressed in the last " + seconds + " s)";
        suppressed = 0;
        return note;
    }
}
