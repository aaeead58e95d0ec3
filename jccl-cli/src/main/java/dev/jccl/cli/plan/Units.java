package dev.jccl.cli.plan;

import java.util.Locale;

/** How the plan prints sizes and times: decimal GB (as link speeds are quoted) and ns scaled to us, ms or s. */
final class Units {
    private Units() {}

    static String bytes(long b) {
        if (b < 1_000) return b + " B";
        if (b < 1_000_000) return String.format(Locale.ROOT, "%.1f KB", b / 1e3);
        if (b < 1_000_000_000) return String.format(Locale.ROOT, "%.1f MB", b / 1e6);
        return String.format(Locale.ROOT, "%.2f GB", b / 1e9);
    }

    static String time(long ns) {
        if (ns < 0) return "-";
        if (ns < 1_000) return ns + " ns";
        if (ns < 1_000_000) return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
        if (ns < 1_000_000_000) return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
        return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }

    static String params(long n) {
        if (n >= 1_000_000_000) return String.format(Locale.ROOT, "%.1fB", n / 1e9);
        if (n >= 1_000_000) return String.format(Locale.ROOT, "%.1fM", n / 1e6);
        return Long.toString(n);
    }

    static String type(int bytes) {
        return bytes == 4 ? "fp32" : "bf16/fp16";
    }
}
