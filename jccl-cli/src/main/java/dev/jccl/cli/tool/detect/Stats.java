package dev.jccl.cli.tool.detect;

import java.util.Arrays;

/** Medians and the like, on plain arrays: the detectors compare with medians so one outlier cannot move the reference. */
public final class Stats {
    private Stats() {}

    /** The median of {@code v} (mean of the two middle values for an even count); NaN when empty. */
    public static double median(double[] v) {
        double[] s = Arrays.stream(v).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (s.length == 0) return Double.NaN;
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    public static double median(double[] v, int from, int to) {
        return median(Arrays.copyOfRange(v, from, to));
    }
}
