package dev.jccl.ddp;

import dev.jccl.DataType;
import dev.jccl.trace.Timeline;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Builder of a {@link DistributedDataParallel}: the parameters in registration order (forward order)
 * and the choices that shape communication. Defaults: 25 MiB buckets, float32 gradients, replicated,
 * one micro-step per step, no loss scaling, overlap with backward on.
 */
public final class DdpOptions {
    public static final long DEFAULT_BUCKET_BYTES = 25L << 20;

    final GradientCollectives collectives;
    final List<Param> params = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    long bucketBytes = DEFAULT_BUCKET_BYTES;
    DataType communicationType = DataType.FLOAT32;
    Sharding sharding = Sharding.REPLICATED;
    int accumulationSteps = 1;
    LossScaler lossScaler;
    boolean allowUnusedParameters;
    boolean overlap = true;
    Timeline timeline = Timeline.DISABLED;

    DdpOptions(GradientCollectives collectives) {
        this.collectives = Objects.requireNonNull(collectives, "collectives");
    }

    /** Registers a parameter: float32 value and gradient views of the same size (e.g. slices of one arena). */
    public DdpOptions param(String name, MemorySegment value, MemorySegment grad) {
        if (!names.add(name)) throw new IllegalArgumentException("parameter " + name + " registered twice");
        params.add(new Param(params.size(), name, value, grad));
        return this;
    }

    /** Bucket size limit in bytes of the communication type. */
    public DdpOptions bucketBytes(long bytes) {
        if (bytes <= 0) throw new IllegalArgumentException("bucket size must be positive, got " + bytes);
        this.bucketBytes = bytes;
        return this;
    }

    /** FLOAT32, BFLOAT16 or FLOAT16: the type gradients travel in; the gradients themselves stay float32. */
    public DdpOptions communicationType(DataType type) {
        if (type != DataType.FLOAT32 && type != DataType.BFLOAT16 && type != DataType.FLOAT16) {
            throw new IllegalArgumentException("gradients travel as float32, bfloat16 or float16, not " + type.ncclName());
        }
        this.communicationType = type;
        return this;
    }

    public DdpOptions sharding(Sharding sharding) {
        this.sharding = Objects.requireNonNull(sharding);
        return this;
    }

    /** Only every K-th backward communicates; the average then covers K micro-batches on every rank. */
    public DdpOptions accumulationSteps(int k) {
        if (k < 1) throw new IllegalArgumentException("accumulation steps must be >= 1, got " + k);
        this.accumulationSteps = k;
        return this;
    }

    /** Dynamic loss scaling: gradients arrive multiplied by the scale; overflowing steps are skipped. */
    public DdpOptions lossScaling(LossScaler scaler) {
        this.lossScaler = Objects.requireNonNull(scaler);
        return this;
    }

    /** Parameters that get no gradient in a step contribute their gradient buffer as it is instead of failing. */
    public DdpOptions allowUnusedParameters(boolean allow) {
        this.allowUnusedParameters = allow;
        return this;
    }

    /** False sends every bucket only after backward (in {@code finish()}): the baseline overlap is measured against. */
    public DdpOptions overlap(boolean overlap) {
        this.overlap = overlap;
        return this;
    }

    /** Records each bucket's collective on a track of its own. */
    public DdpOptions timeline(Timeline timeline) {
        this.timeline = Objects.requireNonNull(timeline);
        return this;
    }

    /** Plans the buckets and broadcasts rank 0's parameters to every rank (blocking). */
    public DistributedDataParallel build() {
        return new DistributedDataParallel(this);
    }
}
