package dev.jccl.cli.tool.detect;

import java.util.ArrayList;
import java.util.List;

/**
 * Collapse detection in a busbw series (one value per interval): an interval is a collapse when it
 * falls below {@code fraction} of the running median of the intervals before it (the last
 * {@value #WINDOW}). The first {@value #MIN_HISTORY} intervals only build the reference. Doctor's soak
 * and stress share this detector.
 */
public final class Collapses {
    public static final double DEFAULT_FRACTION = 0.5;
    static final int WINDOW = 60;
    static final int MIN_HISTORY = 3;

    private Collapses() {}

    /** Indices of the collapsed intervals. */
    public static List<Integer> find(double[] series, double fraction) {
        if (!(fraction > 0 && fraction < 1)) throw new IllegalArgumentException("collapse fraction must be in (0, 1), got " + fraction);
        List<Integer> out = new ArrayList<>();
        for (int i = MIN_HISTORY; i < series.length; i++) {
            double ref = Stats.median(series, Math.max(0, i - WINDOW), i);
            if (series[i] < fraction * ref) out.add(i);
        }
        return out;
    }

    /** The running median each interval was compared with (NaN before the history is long enough): the report draws it. */
    public static double[] reference(double[] series) {
        double[] ref = new double[series.length];
        for (int i = 0; i < series.length; i++) {
            ref[i] = i < MIN_HISTORY ? Double.NaN : Stats.median(series, Math.max(0, i - WINDOW), i);
        }
        return ref;
    }
}
