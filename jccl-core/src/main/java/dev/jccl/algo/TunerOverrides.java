package dev.jccl.algo;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What the user forced, from {@code JCCL_ALGO}, {@code JCCL_NCHANNELS}, {@code JCCL_CHUNKSIZE} and
 * {@code JCCL_BUFFSIZE}; the caller reads the knobs and passes them here, so the tuner stays pure.
 * Values are checked on construction, naming the knob and the value.
 *
 * @param algorithms algorithms the tuner may choose from; empty = any
 * @param channels   channel count to use; empty = the tuner decides
 * @param chunkBytes bytes per chunk; empty = the tuner decides
 * @param buffBytes  bytes of the slot FIFO per peer and channel; empty = {@link Tuner#DEFAULT_BUFF_BYTES}
 */
public record TunerOverrides(List<Algorithm> algorithms, OptionalInt channels, OptionalLong chunkBytes, OptionalLong buffBytes) {
    public static final TunerOverrides NONE = new TunerOverrides(List.of(), OptionalInt.empty(), OptionalLong.empty(), OptionalLong.empty());

    public TunerOverrides {
        algorithms = List.copyOf(Objects.requireNonNull(algorithms, "algorithms"));
        Objects.requireNonNull(channels, "channels");
        Objects.requireNonNull(chunkBytes, "chunkBytes");
        Objects.requireNonNull(buffBytes, "buffBytes");
        if (channels.isPresent() && (channels.getAsInt() < 1 || channels.getAsInt() > Channels.MAX_CHANNELS)) {
            throw new IllegalArgumentException("JCCL_NCHANNELS=" + channels.getAsInt() + " is invalid: need 1.." + Channels.MAX_CHANNELS + " channels");
        }
        if (chunkBytes.isPresent() && chunkBytes.getAsLong() < 1) {
            throw new IllegalArgumentException("JCCL_CHUNKSIZE=" + chunkBytes.getAsLong() + " is invalid: a chunk needs at least one byte");
        }
        if (buffBytes.isPresent() && buffBytes.getAsLong() < 2) {
            throw new IllegalArgumentException("JCCL_BUFFSIZE=" + buffBytes.getAsLong() + " is invalid: the FIFO needs room for two chunks");
        }
        long buff = buffBytes.orElse(Tuner.DEFAULT_BUFF_BYTES);
        if (chunkBytes.isPresent() && chunkBytes.getAsLong() > buff / 2) {
            throw new IllegalArgumentException("JCCL_CHUNKSIZE=" + chunkBytes.getAsLong() + " does not fit twice in JCCL_BUFFSIZE="
                    + buff + ": the FIFO needs two slots so that one chunk moves while the previous one is reduced");
        }
    }

    /**
     * From knob values as the configuration holds them: an algorithm list ("" = any) and 0 for
     * "auto" in the numbers.
     */
    public static TunerOverrides fromKnobs(String algo, int channels, long chunkBytes, long buffBytes) {
        List<Algorithm> allowed;
        try {
            allowed = Algorithm.parseList(algo == null ? "" : algo);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("JCCL_ALGO=" + algo + " is invalid: " + e.getMessage(), e);
        }
        return new TunerOverrides(allowed,
                channels == 0 ? OptionalInt.empty() : OptionalInt.of(channels),
                chunkBytes == 0 ? OptionalLong.empty() : OptionalLong.of(chunkBytes),
                buffBytes == 0 ? OptionalLong.empty() : OptionalLong.of(buffBytes));
    }

    public TunerOverrides withAlgorithms(Algorithm... allowed) {
        return new TunerOverrides(List.of(allowed), channels, chunkBytes, buffBytes);
    }

    public TunerOverrides withChannels(int n) {
        return new TunerOverrides(algorithms, OptionalInt.of(n), chunkBytes, buffBytes);
    }

    public TunerOverrides withChunkBytes(long bytes) {
        return new TunerOverrides(algorithms, channels, OptionalLong.of(bytes), buffBytes);
    }

    public TunerOverrides withBuffBytes(long bytes) {
        return new TunerOverrides(algorithms, channels, chunkBytes, OptionalLong.of(bytes));
    }
}
