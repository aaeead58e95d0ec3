package dev.jccl.algo;

/**
 * Channels split one collective into independent schedules over disjoint, contiguous slices of
 * the unit count ({@link CollectiveArgs#unitCount()}). Each channel has its own queue pairs and
 * slot FIFOs, so channels move data in parallel; a small count leaves the last channels empty.
 */
public final class Channels {
    private Channels() {}

    /** Largest channel count any plan may use. */
    public static final int MAX_CHANNELS = 64;

    /**
     * The slice {@code [offset, offset + count)} channel {@code channel} of {@code nChannels} owns.
     * Slices are multiples of {@code grainElems} (say, elements per 64-byte line) except the tail.
     */
    public static Slice slice(long unitCount, int nChannels, int channel, long grainElems) {
        check(nChannels, channel);
        Blocks blocks = new Blocks(unitCount, nChannels, grainElems);
        return new Slice(blocks.offset(channel), blocks.count(channel));
    }

    public static Slice slice(long unitCount, int nChannels, int channel) {
        return slice(unitCount, nChannels, channel, 1);
    }

    static void check(int nChannels, int channel) {
        if (nChannels < 1 || nChannels > MAX_CHANNELS) {
            throw new IllegalArgumentException("channel count " + nChannels + " is outside [1, " + MAX_CHANNELS + "]");
        }
        if (channel < 0 || channel >= nChannels) {
            throw new IllegalArgumentException("channel " + channel + " is outside [0, " + nChannels + ")");
        }
    }

    /** A channel's part of the unit count. */
    public record Slice(long offset, long count) {}
}
