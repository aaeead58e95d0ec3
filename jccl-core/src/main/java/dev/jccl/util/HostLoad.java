package dev.jccl.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this host has a core to spare: the kernel counts no more runnable threads than cores
 * (the fourth field of {@code /proc/loadavg}, the reader itself included). Read at most every
 * {@link #SAMPLE_PERIOD_NS} per process, since a waiter asks at the start of every wait; where the
 * file does not exist, the answer is no. {@link WaitPolicy} decides what a spare core is worth.
 */
public final class HostLoad {
    static final long SAMPLE_PERIOD_NS = 50_000_000;
    private static final Path LOADAVG = Path.of("/proc/loadavg");

    private static volatile long sampledAtNs;
    private static volatile boolean sampledIdle;
    private static volatile boolean sampled;

    private HostLoad() {}

    /** Whether the host had a core for every runnable thread at the last sample (at most 50 ms old). */
    public static boolean coresToSpare() {
        long now = System.nanoTime();
        if (!sampled || now - sampledAtNs > SAMPLE_PERIOD_NS) {
            sampledIdle = idleCores();
            sampledAtNs = now;
            sampled = true; // races between samplers are harmless: each writes a valid recent sample
        }
        return sampledIdle;
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
