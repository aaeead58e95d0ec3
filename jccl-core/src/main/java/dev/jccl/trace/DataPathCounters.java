package dev.jccl.trace;

import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide counters of what the data path really did: bytes copied by array staging, by the
 * runtime, by the reduction kernels, by the providers in user space and by the kernel's socket
 * calls, and the frames and syscalls behind them. The code paths increment them once per chunk or
 * per call (never per byte), so {@code jccl path --measure} reports what happened rather than what a
 * model predicts. A {@link LongAdder} per counter keeps the progress threads of several
 * communicators from contending on one word; reading sums them and may be a moment behind.
 */
public final class DataPathCounters {
    /** One thing counted, with what it means. */
    public enum Counter {
        STAGED_BYTES("bytes copied between Java arrays and registered staging buffers"),
        RUNTIME_COPY_BYTES("bytes the runtime copied from a receive FIFO or between local buffers"),
        REDUCED_BYTES("bytes of output written by the reduction kernels"),
        SENT_BYTES("bytes the runtime handed to a provider to send"),
        CHUNKS_SENT("chunks the runtime handed to a provider"),
        PROVIDER_COPY_BYTES("bytes a provider copied in user space (shm: into the peer's memory; tcp: frame staging)"),
        SOCKET_BYTES_WRITTEN("bytes written to sockets (each copied by the kernel)"),
        SOCKET_BYTES_READ("bytes read from sockets (each copied by the kernel)"),
        FRAMES_SENT("tcp frames sent"),
        FRAMES_RECEIVED("tcp frames received"),
        SYSCALLS("socket read and write calls"),
        DIRECT_SENT_BYTES("bytes sent as direct-read descriptors: left in the sender's shared buffer for the peer to read"),
        FUSED_BYTES("bytes a receive stored straight into the next peer's FIFO slot as it reduced or copied them (saves that send's copy)"),
        DIRECT_READ_BYTES("bytes reduced or copied straight from a peer's shared buffer (each saves the peer's copy into a FIFO)");

        private final String meaning;

        Counter(String meaning) {
            this.meaning = meaning;
        }

        public String meaning() {
            return meaning;
        }
    }

    private static final Counter[] COUNTERS = Counter.values();
    private static final LongAdder[] ADDERS = new LongAdder[COUNTERS.length];
    private static volatile String lastPlan = "";

    static {
        for (int i = 0; i < ADDERS.length; i++) ADDERS[i] = new LongAdder();
    }

    private DataPathCounters() {}

    /** Adds {@code n} to {@code c}; called by the data path once per chunk, frame or call. */
    public static void add(Counter c, long n) {
        ADDERS[c.ordinal()].add(n);
    }

    public static long get(Counter c) {
        return ADDERS[c.ordinal()].sum();
    }

    /** The tuner's latest new plan, as the runtime described it (algorithm, channels, chunk); empty before any. */
    public static String lastPlan() {
        return lastPlan;
    }

    /** Records a plan the runtime just compiled (once per call shape, not per call). */
    public static void plan(String description) {
        lastPlan = description;
    }

    /** Every counter now. */
    public static Snapshot snapshot() {
        long[] v = new long[COUNTERS.length];
        for (int i = 0; i < v.length; i++) v[i] = ADDERS[i].sum();
        return new Snapshot(v);
    }

    /** Values of every counter at one moment; {@link #since} gives what happened between two. */
    public record Snapshot(long[] values) {
        public Snapshot {
            values = values.clone();
        }

        public long get(Counter c) {
            return values[c.ordinal()];
        }

        public Snapshot since(Snapshot before) {
            long[] d = new long[values.length];
            for (int i = 0; i < d.length; i++) d[i] = values[i] - before.values[i];
            return new Snapshot(d);
        }
    }
}
