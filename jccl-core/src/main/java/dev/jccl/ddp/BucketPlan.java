package dev.jccl.ddp;

import dev.jccl.DataType;
import dev.jccl.util.Sizes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Which parameter's gradient travels in which bucket, and where. Buckets fill in reverse registration
 * order, because backward produces the gradients of the last layers first: bucket 0 holds the
 * last-registered parameters and can leave while earlier layers still compute. A bucket closes when
 * the next parameter would take it past the byte limit; a parameter larger than the limit gets a
 * bucket of its own.
 *
 * <p>Layout of a bucket buffer, in elements of its type: the gradients in bucket order, then the tail
 * (last bucket only: the overflow flag and, when sharded, the shards' sum of squares), then padding
 * to a multiple of the world size where the bucket is reduce-scattered.
 */
public final class BucketPlan {
    /** Where one parameter's gradient sits in its bucket. */
    public record Slot(int paramIndex, String name, long offsetElems, long elems) {}

    /**
     * One bucket. {@code scattered} buckets are reduce-scattered, the others all-reduced.
     *
     * @param tailElems elements after the gradients that carry the step's flags (last bucket only)
     * @param blocks    equal blocks the buffer is cut into: the world size when scattered, else 1
     */
    public record Bucket(int index, List<Slot> slots, DataType type, long gradElems, long tailElems,
                         long paddedElems, boolean scattered, int blocks) {
        public long bytes() {
            return type.bytes(paddedElems);
        }

        /** Offset of the tail in elements. */
        public long tailOffset() {
            return gradElems;
        }
    }

    /** Tail element: 1 when any gradient this rank saw was infinite or NaN; summed, so > 0 means overflow. */
    static final int TAIL_OVERFLOW = 0;
    /** Tail element (sharded only): this rank's sum of squares over its shards of the scattered buckets. */
    static final int TAIL_SUM_SQUARES = 1;

    private final List<Bucket> buckets;
    private final int[] bucketOfParam;
    private final long[] offsetOfParam;
    private final long bucketBytesLimit;
    private final Sharding sharding;

    private BucketPlan(List<Bucket> buckets, int[] bucketOfParam, long[] offsetOfParam, long limit, Sharding sharding) {
        this.buckets = Collections.unmodifiableList(buckets);
        this.bucketOfParam = bucketOfParam;
        this.offsetOfParam = offsetOfParam;
        this.bucketBytesLimit = limit;
        this.sharding = sharding;
    }

    static BucketPlan build(List<Param> params, long bucketBytes, DataType commType, int worldSize, Sharding sharding) {
        if (params.isEmpty()) throw new IllegalArgumentException("no parameters registered");
        if (bucketBytes <= 0) throw new IllegalArgumentException("bucket size must be positive, got " + bucketBytes);
        List<List<Param>> groups = new ArrayList<>();
        List<Param> open = new ArrayList<>();
        long openBytes = 0;
        for (int i = params.size() - 1; i >= 0; i--) {
            Param p = params.get(i);
            long bytes = commType.bytes(p.elements());
            if (!open.isEmpty() && openBytes + bytes > bucketBytes) {
                groups.add(open);
                open = new ArrayList<>();
                openBytes = 0;
            }
            open.add(p);
            openBytes += bytes;
        }
        groups.add(open);

        int[] bucketOf = new int[params.size()];
        long[] offsetOf = new long[params.size()];
        List<Bucket> out = new ArrayList<>();
        for (int b = 0; b < groups.size(); b++) {
            boolean last = b == groups.size() - 1;
            boolean scattered = sharding == Sharding.REDUCE_SCATTER && !last;
            // The sharded sum of squares must not lose precision in a half type, so the last bucket of a
            // sharded plan travels in float32.
            DataType type = (sharding == Sharding.REDUCE_SCATTER && last) ? DataType.FLOAT32 : commType;
            List<Slot> slots = new ArrayList<>();
            long offset = 0;
            for (Param p : groups.get(b)) {
                slots.add(new Slot(p.index(), p.name(), offset, p.elements()));
                bucketOf[p.index()] = b;
                offsetOf[p.index()] = offset;
                offset += p.elements();
            }
            long tail = last ? (sharding == Sharding.REDUCE_SCATTER ? 2 : 1) : 0;
            long padded = offset + tail;
            if (scattered) padded = (padded + worldSize - 1) / worldSize * worldSize;
            out.add(new Bucket(b, List.copyOf(slots), type, offset, tail, padded, scattered, scattered ? worldSize : 1));
        }
        return new BucketPlan(out, bucketOf, offsetOf, bucketBytes, sharding);
    }

    public List<Bucket> buckets() {
        return buckets;
    }

    public Bucket last() {
        return buckets.getLast();
    }

    int bucketOf(int paramIndex) {
        return bucketOfParam[paramIndex];
    }

    long offsetOf(int paramIndex) {
        return offsetOfParam[paramIndex];
    }

    /** Total bytes communicated per synchronizing step (gradients, tails and padding). */
    public long bytesPerStep() {
        return buckets.stream().mapToLong(Bucket::bytes).sum();
    }

    /** A table: one line per bucket with its size, collective and parameters (in bucket order). */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "bucket plan: %d bucket(s), limit %s, %s, %s per step%n", buckets.size(),
                Sizes.formatBytes(bucketBytesLimit), sharding.name().toLowerCase(Locale.ROOT).replace('_', '-'),
                Sizes.formatBytes(bytesPerStep())));
        for (Bucket b : buckets) {
            sb.append(String.format(Locale.ROOT, "  bucket %d  %10s  %-8s %-14s %s%n", b.index(), Sizes.formatBytes(b.bytes()),
                    b.type().ncclName(), b.scattered() ? "reduce-scatter" : "allreduce",
                    String.join(", ", b.slots().stream().map(s -> s.name() + "[" + s.elems() + "]").toList())
                            + (b.tailElems() > 0 ? " + " + b.tailElems() + " flag element(s)" : "")));
        }
        return sb.toString();
    }
}
