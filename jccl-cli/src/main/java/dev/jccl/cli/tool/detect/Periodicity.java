package dev.jccl.cli.tool.detect;

import java.util.List;
import java.util.Locale;

/**
 * Whether collapses recur with a period: the autocorrelation of the dip series (how far each
 * interval fell below its running median, 0 when it did not) peaks at the period. Lags from 2 up to
 * a third of the series are tried, so at least three periods are seen. It needs at least
 * {@value #MIN_COLLAPSES} collapses (in at most a quarter of the points) and a peak of at least
 * {@value #MIN_PEAK} that follows a trough (collapses that only cluster have none); noise and a
 * healthy series have neither. The autocorrelation is summed over each lag and its neighbours, and
 * the period is the centroid of the best three, since a stall that straddles two intervals spreads its weight.
 *
 * @param periodic    whether a period was found
 * @param periodS     the period in seconds (NaN when none)
 * @param correlation the autocorrelation at the peak
 */
public record Periodicity(boolean periodic, double periodS, double correlation, String reason) {
    public static final int MIN_COLLAPSES = 3;
    static final double MIN_PEAK = 0.45;
    static final double HARMONIC = 0.8;
    static final double MAX_COLLAPSED_SHARE = 0.25;
    static final double TROUGH = 0.1;

    public static Periodicity find(double[] series, double intervalS, double fraction) {
        return find(series, intervalS, fraction, 2);
    }

    /**
     * As above, with periods shorter than {@code minLag} points not considered (slices of an
     * interval: a period must span intervals, not the lumpiness of batches within one). Collapses in
     * more than {@value #MAX_COLLAPSED_SHARE} of the points are a noisy series, not a rhythm.
     */
    public static Periodicity find(double[] series, double intervalS, double fraction, int minLag) {
        return find(series, null, intervalS, fraction, minLag);
    }

    /**
     * As above, for intervals that end at {@code endS} (seconds, rising) rather than every
     * {@code intervalS}: a stall stretches the interval it falls in, so a period counted in
     * intervals would come out short. The dips are placed on a grid of {@code intervalS} by their
     * end times first. With {@code endS} null the intervals are taken as regular.
     */
    public static Periodicity find(double[] series, double[] endS, double intervalS, double fraction, int minLag) {
        return find(series, endS, intervalS, fraction, minLag, MIN_COLLAPSES);
    }

    /**
     * As above, asking for at least {@code minCollapses}. Three collapses show a period only twice,
     * and three dips that land evenly by chance are common where dips are cheap (slices of an
     * interval, where one descheduled batch is a collapse), so such searches ask for more.
     */
    public static Periodicity find(double[] series, double[] endS, double intervalS, double fraction, int minLag, int minCollapses) {
        List<Integer> collapses = Collapses.find(series, fraction);
        if (collapses.size() < Math.max(MIN_COLLAPSES, minCollapses)) {
            return new Periodicity(false, Double.NaN, 0, collapses.size() + " collapse(s): too few to show a period");
        }
        if (collapses.size() > MAX_COLLAPSED_SHARE * series.length) {
            return new Periodicity(false, Double.NaN, 0, String.format(Locale.ROOT,
                    "%d collapses in %d points: a noisy series rather than a period", collapses.size(), series.length));
        }
        double[] ref = Collapses.reference(series);
        double[] dip = new double[series.length];
        // Only collapses count: wiggles above the threshold (the lumpiness of batches) are no rhythm.
        for (int i : collapses) dip[i] = Math.max(0, 1 - series[i] / ref[i]);
        if (endS != null) dip = onTimeGrid(dip, endS, intervalS);
        double[] acf = autocorrelation(dip);
        // Summed over the lag and its two neighbours: a stall that lands an interval early or late,
        // or straddles two intervals, still counts towards its period.
        int maxLag = dip.length / 3;
        double[] score = new double[maxLag + 2];
        double top = 0;
        int firstLag = Math.max(2, minLag);
        for (int lag = firstLag; lag <= maxLag; lag++) {
            score[lag] = Math.max(0, acf[lag - 1]) + Math.max(0, acf[lag]) + Math.max(0, acf[lag + 1]);
            top = Math.max(top, score[lag]);
        }
        // Multiples of the period score about as well as the period itself: take the first peak near the top.
        int best = -1;
        // A period is a peak after a trough: collapses that merely cluster (a bad minute) correlate at
        // every short lag and never fall off in between.
        double lowest = 1;
        for (int lag = 1; lag < firstLag - 1 && lag < acf.length; lag++) lowest = Math.min(lowest, acf[lag]);
        for (int lag = firstLag; lag <= maxLag && best < 0; lag++) {
            lowest = Math.min(lowest, Math.min(acf[lag - 1], acf[lag]));
            if (lowest <= TROUGH && score[lag] >= HARMONIC * top && score[lag] >= score[lag - 1] && score[lag] >= score[lag + 1]) best = lag;
        }
        double bestScore = best < 0 ? top : score[best];
        if (best < 0) {
            return new Periodicity(false, Double.NaN, 0, collapses.size()
                    + " collapses without a period (their autocorrelation has no peak after a trough: they cluster, not recur)");
        }
        if (bestScore < MIN_PEAK) {
            return new Periodicity(false, Double.NaN, bestScore, String.format(Locale.ROOT,
                    "%d collapses without a period (autocorrelation peak %.2f < %.2f)", collapses.size(), bestScore, MIN_PEAK));
        }
        double w0 = Math.max(0, acf[best - 1]);
        double w1 = Math.max(0, acf[best]);
        double w2 = Math.max(0, acf[best + 1]);
        double lag = ((best - 1) * w0 + best * w1 + (best + 1) * w2) / (w0 + w1 + w2);
        double period = lag * intervalS;
        return new Periodicity(true, period, bestScore, String.format(Locale.ROOT,
                "%d collapses, every ~%.1f s (autocorrelation %.2f around that lag)", collapses.size(), period, bestScore));
    }

    /** {@code dip} moved onto slots of {@code stepS} by the end time of each point (the deepest dip wins a slot). */
    static double[] onTimeGrid(double[] dip, double[] endS, double stepS) {
        if (dip.length == 0) return dip;
        int slots = (int) Math.round((endS[endS.length - 1] - endS[0]) / stepS) + 1;
        double[] grid = new double[Math.max(slots, 1)];
        for (int i = 0; i < dip.length; i++) {
            int slot = (int) Math.round((endS[i] - endS[0]) / stepS);
            grid[slot] = Math.max(grid[slot], dip[i]);
        }
        return grid;
    }

    /** Autocorrelation of {@code x} at every lag, normalised by the variance (lag 0 = 1). */
    static double[] autocorrelation(double[] x) {
        int n = x.length;
        double mean = 0;
        for (double v : x) mean += v;
        mean /= Math.max(1, n);
        double var = 0;
        for (double v : x) var += (v - mean) * (v - mean);
        double[] acf = new double[n];
        if (var == 0) return acf;
        for (int lag = 0; lag < n; lag++) {
            double s = 0;
            for (int i = 0; i + lag < n; i++) s += (x[i] - mean) * (x[i + lag] - mean);
            acf[lag] = s / var;
        }
        return acf;
    }
}
