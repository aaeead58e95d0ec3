package dev.jccl.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How long a waiter busy-polls before it yields and parks (JCCL_SPIN).
 *
 * <p>Spinning is the fastest way to notice a peer's progress, and a thief of the peer's core when
 * ranks outnumber cores. So a fixed budget is used as given, and {@link #AUTO} lets the waiting
 * provider decide, usually through {@link #autoSpinNs()}: {@link #LONG_SPIN_NS}, which covers a
 * peer's reply, while the kernel counts no more runnable threads than cores (two ranks on two idle
 * cores), else nothing beyond the strategy's few default rounds, so a waiter gets off the core its
 * peer needs. The count is the fourth field of {@code /proc/loadavg}, read at most every
 * {@link #SAMPLE_PERIOD_NS} per process; where that file does not exist, the answer is nothing.
 */
public final class SpinBudget {
    /** The knob value meaning "decide from the host's load". */
    public static final long AUTO = -1;
    /** Spin budget while the host has a core for every runnable thread. */
    public static final long LONG_SPIN_NS = 50_000;
    static final long SAMPLE_PERIOD_NS = 50_000_000;
    private static final Path LOADAVG = Path.of("/proc/loadavg");

    private static volatile long sampledAtNs;
    private static volatile long sampledSpinNs;
    private static volatile boolean sampled;

    private SpinBudget() {}

    /** {@code configuredNs} itself, or for {@link #AUTO} the host-based choice of {@link #autoSpinNs()}. */
    public static long spinNs(long configuredNs) {
        return configuredNs == AUTO ? autoSpinNs() : configuredNs;
    }

    /** {@link #LONG_SPIN_NS} while the host has a core for every runnable thread, else 0. */
    public static long autoSpinNs() {
        long now = System.nanoTime();
        if (!sampled || now - sampledAtNs > SAMPLE_PERIOD_NS) {
            sampledSpinNs = idleCores() ? LONG_SPIN_NS : 0;
            sampledAtNs = now;
            sampled = true; // races between samplers are harmless: each writes a valid recent sample
        }
        return sampledSpinNs;
    }

    /** Whether the kernel sees no more runnable threads than cores (the reader itself included). */
    static boolean idleCores() {
        try {
            return runnableAtMost(Files.readString(LOADAVG), Runtime.getRuntime().availableProcessors());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Parses the fourth field of /proc/loadavg ("running/total") and compares it with {@code cores}. */
    static boolean runnableAtMost(String loadavg, int cores) {
        String[] fields = loadavg.trim().split("\\s+");
        if (fields.length < 4) return false;
        int slash = fields[3].indexOf('/');
        if (slash <= 0) return false;
        return Integer.parseInt(fields[3].substring(0, slash)) <= cores;
    }
}
