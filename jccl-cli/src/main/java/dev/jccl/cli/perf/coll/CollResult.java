package dev.jccl.cli.perf.coll;

/** One size's figures, out-of-place and in-place, as rank 0 prints them. */
public record CollResult(long bytes, long count, String type, String redop, int root,
                  Figures outOfPlace, Figures inPlace) {
    /** Time per call (slowest rank's mean), bandwidths in GB/s (10^9 bytes/s), wrong elements (-1: not checked). */
    public record Figures(double timeUs, double algBw, double busBw, long wrong) {}
}
