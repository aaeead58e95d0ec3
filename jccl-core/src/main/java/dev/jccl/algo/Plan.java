package dev.jccl.algo;

import java.util.List;

/**
 * The tuner's decision and how it got there.
 *
 * @param candidates  every algorithm considered, fastest first, each with its best channel count
 *                    and chunk; algorithms that cannot run here come last, with the reason
 * @param why         one line for the debug log
 */
public record Plan(Collective collective, long bytes, Algorithm algorithm, int channels, long chunkBytes, long buffBytes,
                   long predictedNs, List<Candidate> candidates, String why) {
    public Plan {
        candidates = List.copyOf(candidates);
    }

    /** Elements per chunk for a type of {@code elementBytes}: at least one. */
    public long chunkElems(int elementBytes) {
        if (elementBytes < 1) throw new IllegalArgumentException("element size " + elementBytes);
        return Math.max(1, chunkBytes / elementBytes);
    }

    /**
     * One algorithm's best configuration, or why it was not considered ({@code notApplicable}
     * non-null, {@code predictedNs} then -1).
     */
    public record Candidate(Algorithm algorithm, int channels, long chunkBytes, long predictedNs, String notApplicable) {
        public boolean applicable() {
            return notApplicable == null;
        }
    }
}
