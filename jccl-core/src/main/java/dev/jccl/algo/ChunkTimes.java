package dev.jccl.algo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The chunk arithmetic of {@link CostModel}: how long a step's chunks take on a link whose FIFO has a
 * few slots, each free again only one round trip (chunk, latency there, reduction, latency back)
 * after its chunk was posted, and how long the busiest link takes for every step that uses it.
 */
final class ChunkTimes {
    private ChunkTimes() {}

    /**
     * One hop's latency, cost of one chunk, number of chunks, and a slot's round trip: a chunk may
     * start only when the chunk {@code slots} before it on the link has been consumed and its credit is back.
     */
    record HopCost(double alphaNs, double chunkNs, double chunks, double roundTripNs, int slots, int link) {
        /** From the first chunk's start to the last's: back to back, except that every slots-th waits for a round trip. */
        double restNs() {
            return window(chunks - 1, chunkNs, roundTripNs, slots);
        }
    }

    /** When the m-th chunk after a first one can start, at {@code chunkNs} apart and {@code slots} per round trip. */
    static double window(double m, double chunkNs, double roundTripNs, int slots) {
        double trips = Math.floor(m / slots);
        return Math.max(m * chunkNs, trips * roundTripNs + (m - trips * slots) * chunkNs);
    }

    /**
     * The busiest link: its latency once, plus the chunks of every step that uses it back to back. Where
     * a link's steps go to one peer ({@code onePeer}: one FIFO, whatever the step), its slots are shared
     * and one round trip is paid per slots chunks of all of them together; else each step has its own.
     */
    static double load(List<HopCost> costs, boolean onePeer) {
        Map<Integer, double[]> perLink = new HashMap<>();
        for (HopCost c : costs) {
            double[] l = perLink.computeIfAbsent(c.link(), k -> new double[5]);
            l[0] += c.chunks() * c.chunkNs();
            l[1] += c.chunks();
            l[2] = Math.max(l[2], c.roundTripNs());
            l[3] = Math.max(l[3], c.alphaNs());
            l[4] += c.chunkNs() + c.restNs();
        }
        int slots = costs.getFirst().slots();
        double worst = 0;
        for (double[] l : perLink.values()) {
            double perChunk = l[0] / l[1];
            worst = Math.max(worst, l[3] + (onePeer ? perChunk + window(l[1] - 1, perChunk, l[2], slots) : l[4]));
        }
        return worst;
    }
}
