package dev.jccl.plan;

/**
 * One algorithm's closed-form prediction for one allreduce. {@code notApplicable} is non-null
 * (and the times -1) when it cannot or need not run here. Byte figures come from the real
 * schedules, counted on the ranks of the first and the last host: {@code sentBytesPerRank} is the
 * most any of them sends, {@code crossHostBytesPerRank} the most one of them sends to other hosts,
 * {@code hostLinkBytes} the most that leaves one host (its NIC's load).
 */
public record AlgorithmPlan(String algorithm, String notApplicable, long timeNs, int channels, long chunkBytes,
                            long sentBytesPerRank, long crossHostBytesPerRank, long hostLinkBytes, double busbwGBps) {
    public boolean applicable() {
        return notApplicable == null;
    }
}
