package dev.jccl.util;

/** A point in {@link System#nanoTime()} time after which a bounded wait gives up. */
public record Deadline(long atNanos) {
    public static Deadline after(long timeoutNs) {
        long now = System.nanoTime();
        // Saturate instead of overflowing for "practically forever" timeouts.
        long at = timeoutNs > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + timeoutNs;
        return new Deadline(at);
    }

    public boolean expired() {
        return System.nanoTime() - atNanos >= 0;
    }

    public long remainingNs() {
        return Math.max(0, atNanos - System.nanoTime());
    }
}
