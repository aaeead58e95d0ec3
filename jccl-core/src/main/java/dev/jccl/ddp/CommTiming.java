package dev.jccl.ddp;

/**
 * Where one synchronizing step's communication went.
 *
 * @param commNs    time at least one bucket was in flight (union of launch-to-completion intervals)
 * @param exposedNs time the training thread waited for buckets: in {@code finish()} after backward,
 *                  plus {@code backwardWaitNs}; communication the step paid for
 * @param hiddenNs  {@code commNs - exposedNs}: communication that ran while backward still computed
 * @param bytes     bytes of the bucket buffers communicated
 * @param buckets   number of bucket collectives
 * @param backwardWaitNs part of exposedNs spent inside backward's gradReady calls (sharded: waiting for
 *                  the scattered buckets before the last bucket can carry their sum of squares);
 *                  a trainer timing backward should count it as communication, not compute
 */
public record CommTiming(long commNs, long exposedNs, long hiddenNs, long bytes, int buckets, long backwardWaitNs) {
    public static final CommTiming NONE = new CommTiming(0, 0, 0, 0, 0, 0);

    /** Share of communication time hidden under backward, 0..1 (0 when nothing was communicated). */
    public double hiddenShare() {
        return commNs == 0 ? 0 : (double) hiddenNs / commNs;
    }
}
