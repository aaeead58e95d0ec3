package dev.jccl.util;

import java.util.Locale;

/** Parsing and printing byte sizes and durations the way engineers type them: 4M, 256KiB, 30s, 5ms. */
public final class Sizes {
    private Sizes() {}

    /** Parses "8", "4k", "4K", "4KiB", "4KB", "64M", "1G" as bytes (binary multiples). */
    public static long parseBytes(String text) {
        String s = text.trim().toUpperCase(Locale.ROOT);
        if (s.endsWith("IB")) s = s.substring(0, s.length() - 2);
        else if (s.endsWith("B") && s.length() > 1 && !Character.isDigit(s.charAt(s.length() - 2))) s = s.substring(0, s.length() - 1);
        else if (s.endsWith("B")) s = s.substring(0, s.length() - 1);
        long mult = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> mult = 1L << 10;
                case 'M' -> mult = 1L << 20;
                case 'G' -> mult = 1L << 30;
                case 'T' -> mult = 1L << 40;
                default -> mult = 1;
            }
            if (mult != 1) s = s.substring(0, s.length() - 1);
        }
        try {
            long v = Long.parseLong(s.trim());
            if (v < 0) throw new IllegalArgumentException("negative size: " + text);
            return Math.multiplyExact(v, mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a byte size: '" + text + "' (try 4096, 64K, 4M, 1G)");
        }
    }

    /** Parses "500" (milliseconds), "500ms", "30s", "2m", "100us", "1000ns" into nanoseconds. */
    public static long parseDurationNs(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        long mult;
        if (s.endsWith("ns")) { mult = 1; s = s.substring(0, s.length() - 2); }
        else if (s.endsWith("us")) { mult = 1_000; s = s.substring(0, s.length() - 2); }
        else if (s.endsWith("ms")) { mult = 1_000_000; s = s.substring(0, s.length() - 2); }
        else if (s.endsWith("s")) { mult = 1_000_000_000L; s = s.substring(0, s.length() - 1); }
        else if (s.endsWith("m")) { mult = 60_000_000_000L; s = s.substring(0, s.length() - 1); }
        else { mult = 1_000_000; }
        try {
            long v = Long.parseLong(s.trim());
            if (v < 0) throw new IllegalArgumentException("negative duration: " + text);
            return Math.multiplyExact(v, mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (try 500ms, 30s, 2m)");
        }
    }

    /** 1536 -> "1.5 KiB"; exact powers print without decimals. */
    public static String formatBytes(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return (v == Math.rint(v) ? String.format(Locale.ROOT, "%d %s", (long) v, units[u])
                : String.format(Locale.ROOT, "%.1f %s", v, units[u]));
    }
}
