package dev.jccl.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One simulated allreduce next to the closed form for the same configuration.
 *
 * @param simChunkBytes the chunk the simulation used: the closed form's, or coarser (see {@link Simulator})
 * @param wallNs        how long the simulation itself took
 * @param bottleneck    the busiest queue and its utilisation
 */
public record SimResult(String algorithm, int ranks, long bytes, long simulatedNs, long closedFormNs, int channels, long chunkBytes,
                        long simChunkBytes, long events, long wallNs, String bottleneck) {
    /** simulated / closed form - 1. */
    public double difference() {
        return closedFormNs <= 0 ? 0 : (double) simulatedNs / closedFormNs - 1;
    }

    /** Why the two differ, as far as the model can tell; empty within 2%. */
    public List<String> reasons() {
        List<String> out = new ArrayList<>();
        if (Math.abs(difference()) < 0.02) return out;
        if (simChunkBytes != chunkBytes) {
            out.add(String.format(Locale.ROOT, "chunks coarsened from %d to %d bytes to bound the events, so pipelines fill in bigger steps",
                    chunkBytes, simChunkBytes));
        }
        boolean slower = difference() > 0;
        out.add(switch (algorithm) {
            case "ring" -> "both are bound by the host NIC that the ring's cross-host hop uses every step; the rest is pipeline fill";
            case "hierarchical" -> "the closed form overlaps the three phases fully; in the simulation a block's cross-host ring starts when"
                    + " its intra-host reduction is done, and the host's flows contend for its NIC chunk by chunk";
            default -> slower
                    ? "in the simulation, flows that share a host's NIC go chunk by chunk in booking order and a chunk needs both the"
                    + " sender's NIC out and the receiver's NIC in; where those are busy at different times gaps appear, which the"
                    + " closed form's averaged shared bandwidth does not see"
                    : "the closed form adds up the steps (or levels) at their most loaded link; in the simulation steps on different"
                    + " links overlap chunk by chunk as far as the chunk hazards allow";
        });
        out.add("busiest queue in the simulation: " + bottleneck);
        return out;
    }
}
