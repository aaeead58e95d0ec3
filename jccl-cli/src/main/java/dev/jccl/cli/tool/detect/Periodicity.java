package dev.jccl.cli.tool.detect;

import java.util.List;
import java.util.Locale;

/**
 * Whether collapses recur with a period: the autocorrelation of the dip series (how far each
 * interval fell below its running median, 0 when it did not) peaks at the period. Lags from 2 up to
 * a third of the series are tried, so at least three periods are seen. It needs at least
 * {@value #MIN_COLLAPSES} collapses and a peak of at least {@value #MIN_PEAK}; noise and a healthy
 * series have neither. The autocorrelation is summed over each lag and its neighbours, and the period
 * is the centroid of the best three, since a stall that straddles two intervals spreads its weight.
 *
 * @param periodic    whether a period was found
 * @param periodS     the period in seconds (NaN when none)
 * @param correlation the autocorrelation at the peak
 */
public record Periodicity(boolean periodic, double periodS, double correlation, String reason) {
    static final int MIN_COLLAPSES = 3;
    static final double MIN_PEAK = 0.45;
    static final double HARMONIC = 0.8;

    public static Periodicity find(double[] series, double intervalS, double fraction) {
        List<Integer> collapses = Collapses.find(series, fraction);
        if (collapses.size() < MIN_COLLAPSES) {
            return new Periodicity(false, Double.NaN, 0, collapses.size() + " collapse(s): too few to show a period");
        }
        double[] ref = Collapses.reference(series);
        double[] dip = new double[series.length];
        for (int i = 0; i < dip.length; i++) dip[i] = Double.isNaN(ref[i]) || ref[i] <= 0 ? 0 : Math.max(0, 1 - series[i] / ref[i]);
        double[] acf = autocorrelation(dip);
        // Summed over the lag and its two neighbours: a stall that lands an interval early or late,
        // or straddles two intervals, still counts towards its period.
        int maxLag = dip.length / 3;
        double[] score = new double[maxLag + 2];
        double top = 0;
        for (int lag = 2; lag <= maxLag; lag++) {
            score[lag] = Math.max(0, acf[lag - 1]) + Math.max(0, acf[lag]) + Math.max(0, acf[lag + 1]);
            top = Math.max(top, score[lag]);
        }
        // Multiples of the period score about as well as the period itself: take the first peak near the top.
        int best = -1;
        for (int lag = 2; lag <= maxLag && best < 0; lag++) {
            if (score[lag] >= HARMONIC * top && score[lag] >= score[lag - 1] && score[lag] >= score[lag + 1]) best = lag;
        }
        double bestScore = best < 0 ? top : score[best];
        if (best < 0 || bestScore < MIN_PEAK) {
            return new Periodicity(false, Double.NaN, Math.max(0, bestScore), String.format(Locale.ROOT,
                    "%d collapses without a period (autocorrelation peak %.2f < %.2f)", collapses.size(), Math.max(0, bestScore), MIN_PEAK));
        }
        double w0 = Math.max(0, acf[best - 1]);
        double w1 = Math.max(0, acf[best]);
        double w2 = Math.max(0, acf[best + 1]);
        double lag = ((best - 1) * w0 + best * w1 + (best + 1) * w2) / (w0 + w1 + w2);
        double period = lag * intervalS;
        return new Periodicity(true, period, bestScore, String.format(Locale.ROOT,
                "%d collapses, every ~%.1f s (autocorrelation %.2f around that lag)", collapses.size(), period, bestScore));
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
