package dev.jccl.netns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The whole machine's CPU use between two readings of /proc/stat's first line: how busy the cores were
 * (everyone's work, not only a job's) and how much of it was softirq (the veths' and the router's
 * packet forwarding runs there), so a benchmark can tell a CPU-bound run from a link-bound one.
 */
record MachineCpu(long[] ticks) {
    static MachineCpu now() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            long[] t = new long[f.length - 1];
            for (int i = 1; i < f.length; i++) t[i - 1] = Long.parseLong(f[i]);
            return new MachineCpu(t);
        } catch (IOException | RuntimeException e) {
            return new MachineCpu(new long[0]);
        }
    }

    /**
     * Since {@code before}: "cores 100% busy (user 60%, system 25%, softirq 15%, steal 0%)", shares of
     * all cores' time; fields of /proc/stat: user nice system idle iowait irq softirq steal.
     */
    String since(MachineCpu before) {
        if (ticks.length < 8 || before.ticks.length < 8) return "cpu use unknown";
        long[] d = new long[8];
        long total = 0;
        for (int i = 0; i < 8; i++) {
            d[i] = ticks[i] - before.ticks[i];
            total += d[i];
        }
        if (total <= 0) return "cpu use unknown";
        double t = total;
        return String.format(Locale.ROOT, "cores %.0f%% busy (user %.0f%%, system %.0f%%, softirq %.0f%%, iowait %.0f%%, steal %.0f%%)",
                100 * (t - d[3] - d[4]) / t, 100 * (d[0] + d[1]) / t, 100 * (d[2] + d[5]) / t, 100 * d[6] / t, 100 * d[4] / t,
                100 * d[7] / t);
    }
}
