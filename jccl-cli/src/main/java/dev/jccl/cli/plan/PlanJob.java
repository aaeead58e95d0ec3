package dev.jccl.cli.plan;

import dev.jccl.plan.PlanRequest;

/**
 * What {@code jccl plan} was asked, checked: the allreduce of one optimizer step's gradient
 * ({@code request}, its bytes as communicated) and the training step around it.
 *
 * @param params      parameter count (0 when the size was given in bytes)
 * @param gradBytes   bytes per gradient element, as the model computes it
 * @param commBytes   bytes per element on the wire
 * @param computeNs   forward + backward of one micro-step on one rank; 0 when unknown
 */
record PlanJob(PlanRequest request, long params, int gradBytes, int commBytes, long computeNs, long bucketBytes,
               int accumulation, boolean clip, boolean overlap, String linksFrom) {
    /** The gradient's bytes as the model holds it (before any precision change for communication). */
    long gradientBytes() {
        return request.bytes() / commBytes * gradBytes;
    }

    int buckets() {
        return Math.toIntExact((request.bytes() + bucketBytes - 1) / bucketBytes);
    }

    long tailBytes() {
        long tail = request.bytes() - (long) (buckets() - 1) * bucketBytes;
        return tail;
    }

    PlanJob withRequest(PlanRequest r) {
        return new PlanJob(r, params, gradBytes, commBytes, computeNs, bucketBytes, accumulation, clip, overlap, linksFrom);
    }
}
