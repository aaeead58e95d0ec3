package dev.jccl.cli.perf.coll;

/** One size's figures, out-of-place and in-place, as rank 0 prints them. */
public record CollResult(long bytes, long count, String type, String redop, int root,
                  Figures outOfPlace, Figures inPlace) {
    /**
     * Time per call (the slowest rank's median over batches), bandwidths in GB/s (10^9 bytes/s), wrong
     * elements (-1: not checked); the slowest rank's mean over all timed calls and p50/p99 of single
     * calls (NaN where not measured).
     */
    public record Figures(double timeUs, double algBw, double busBw, long wrong, double meanUs, double p50Us, double p99Us) {
        public Figures(double timeUs, double algBw, double busBw, long wrong) {
            this(timeUs, algBw, busBw, wrong, Double.NaN, Double.NaN, Double.NaN);
        }
    }
}
