package dev.jccl.cli;

import dev.jccl.util.Sizes;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Refusals of bad input, for every command that takes sizes and durations, each as one line naming the flag and the limit, before any rank starts:
 * a size the host's memory cannot hold, a zero or negative duration, an unknown collective. The
 * command's error handler prints the message alone (no stack trace), so a new user sees what to
 * change instead of an OutOfMemoryError from a rank.
 */
public final class Inputs {
    /** Ranks one host may start: beyond this the launcher's pipes and the cores are the limit, not jccl. */
    public static final int MAX_LOCAL_RANKS = 256;

    private Inputs() {}

    /** Parses a size flag: more than 0 and at most {@code maxBytes}. */
    public static long size(String flag, String text, long maxBytes) {
        long bytes = parse(flag, text);
        if (bytes <= 0) throw new IllegalArgumentException(flag + " must be more than 0 bytes, got " + text);
        if (bytes > maxBytes) {
            throw new IllegalArgumentException(flag + " " + text + " cannot fit: at most " + Sizes.formatBytes(maxBytes) + " here");
        }
        return bytes;
    }

    /** Parses a size flag that may be 0. */
    public static long sizeOrZero(String flag, String text) {
        long bytes = parse(flag, text);
        if (bytes < 0) throw new IllegalArgumentException(flag + " must be >= 0, got " + text);
        return bytes;
    }

    private static long parse(String flag, String text) {
        try {
            return Sizes.parseBytes(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(flag + ": '" + text + "' is not a size (e.g. 64M, 1G): " + e.getMessage());
        }
    }

    /**
     * The largest buffer a rank may ask for when {@code buffers} buffers of that size live in each of
     * {@code ranksOnHost} ranks: the host's physical memory shared out, minus a quarter for everything else.
     */
    public static long maxBufferBytes(int buffers, int ranksOnHost) {
        long total = physicalMemory();
        return Math.max(1, total / 4 * 3 / Math.max(1, (long) buffers * ranksOnHost));
    }

    /** MemTotal of /proc/meminfo; the JVM's heap limit where that cannot be read. */
    public static long physicalMemory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        } catch (Exception e) {
            // not Linux: fall through
        }
        return Runtime.getRuntime().maxMemory();
    }

    /** Parses a duration flag where 0 means off. */
    public static long durationOrZero(String flag, String text) {
        String t = text.trim();
        if (t.matches("0+[a-z]*")) return 0;
        return duration(flag, text);
    }

    /** Parses a duration flag: more than 0. */
    public static long duration(String flag, String text) {
        long ns;
        try {
            ns = Sizes.parseDurationNs(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(flag + ": '" + text + "' is not a duration (e.g. 30s, 2m): " + e.getMessage());
        }
        if (ns <= 0) throw new IllegalArgumentException(flag + " must be more than 0, got " + text);
        return ns;
    }

    /** A positive count flag, at most {@code max}. */
    public static int count(String flag, int value, int max) {
        if (value < 1 || value > max) throw new IllegalArgumentException(flag + " must be in 1.." + max + ", got " + value);
        return value;
    }

    public static int ranks(int n) {
        return count("-N/--ranks", n, MAX_LOCAL_RANKS);
    }

}
