package dev.jccl.ddp;

/**
 * Where one synchronizing step's communication went.
 *
 * @param commNs    time at least one bucket was in flight (union of launch-to-completion intervals)
 * @param exposedNs time {@code finish()} waited for buckets after backward ended: communication the
 *                  step paid for
 * @param hiddenNs  {@code commNs - exposedNs}: communication that ran while backward still computed
 * @param bytes     bytes of the bucket buffers communicated
 * @param buckets   number of bucket collectives
 */
public record CommTiming(long commNs, long exposedNs, long hiddenNs, long bytes, int buckets) {
    public static final CommTiming NONE = new CommTiming(0, 0, 0, 0, 0);

    /** Share of communication time hidden under backward, 0..1 (0 when nothing was communicated). */
    public double hiddenShare() {
        return commNs == 0 ? 0 : (double) hiddenNs / commNs;
    }
}
