package dev.jccl.cli.tool;

import dev.jccl.util.Sizes;

import java.util.List;
import java.util.Locale;

/** The knobs {@code jccl sweep} (and doctor) sweep, with the values tried by default. */
public enum SweptKnob {
    QPS("JCCL_QPS_PER_CONNECTION", List.of("1", "2", "4", "8", "16"), 1, 64),
    BUFFSIZE("JCCL_BUFFSIZE", List.of("512K", "1M", "2M", "4M", "8M"), 64 << 10, 1L << 30),
    CHANNELS("JCCL_NCHANNELS", List.of("1", "2", "4", "8"), 1, 64),
    CHUNKSIZE("JCCL_CHUNKSIZE", List.of("64K", "128K", "256K", "512K", "1M"), 4 << 10, 1L << 30);

    private final String knob;
    private final List<String> defaults;
    private final long min;
    private final long max;

    SweptKnob(String knob, List<String> defaults, long min, long max) {
        this.knob = knob;
        this.defaults = defaults;
        this.min = min;
        this.max = max;
    }

    public String knob() {
        return knob;
    }

    public List<String> defaults() {
        return defaults;
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether values are byte sizes (printed as such) rather than counts. */
    public boolean bytes() {
        return this == BUFFSIZE || this == CHUNKSIZE;
    }

    /** A value as a number, refused in one line when out of the knob's range. */
    public long parse(String flag, String text) {
        long v;
        try {
            v = bytes() ? Sizes.parseBytes(text) : Long.parseLong(text.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(flag + ": '" + text + "' is not a value of " + knob);
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(flag + ": " + knob + " must be in " + show(min) + ".." + show(max) + ", got " + text);
        }
        return v;
    }

    public String show(long v) {
        return bytes() ? Sizes.formatBytes(v) : Long.toString(v);
    }

    public static SweptKnob parse(String text) {
        for (SweptKnob k : values()) if (k.cliName().equals(text.toLowerCase(Locale.ROOT))) return k;
        throw new IllegalArgumentException("KNOB: unknown knob '" + text + "'; known: qps, buffsize, channels, chunksize");
    }
}
