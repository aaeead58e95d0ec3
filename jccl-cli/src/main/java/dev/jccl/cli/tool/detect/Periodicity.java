package dev.jccl.cli.tool.detect;

import java.util.List;
import java.util.Locale;

/**
 * Whether collapses recur with a period: the autocorrelation of the dip series (how far each
 * interval fell below its running median, 0 when it did not) peaks at the period. Lags from 2 up to
 * a third of the series are tried, so at least three periods are seen. It needs at least
 * {@value #MIN_COLLAPSES} collapses and a peak of at least {@value #MIN_PEAK}; noise and a healthy
 * series have neither. The period is the peak lag refined by the centroid of its neighbours, since
 * a stall that straddles two intervals spreads its weight over two lags.
 *
 * @param periodic    whether a period was found
 * @param periodS     the period in seconds (NaN when none)
 * @param correlation the autocorrelation at the peak
 */
public record Periodicity(boolean periodic, double periodS, double correlation, String reason) {
    static final int MIN_COLLAPSES = 3;
    static final double MIN_PEAK = 0.3;

    public static Periodicity find(double[] series, double intervalS, double fraction) {
        List<Integer> collapses = Collapses.find(series, fraction);
        if (collapses.size() < MIN_COLLAPSES) {
            return new Periodicity(false, Double.NaN, 0, collapses.size() + " collapse(s): too few to show a period");
        }
        double[] ref = Collapses.reference(series);
        double[] dip = new double[series.length];
        for (int i = 0; i < dip.length; i++) dip[i] = Double.isNaN(ref[i]) || ref[i] <= 0 ? 0 : Math.max(0, 1 - series[i] / ref[i]);
        double[] acf = autocorrelation(dip);
        int best = -1;
        for (int lag = 2; lag <= dip.length / 3; lag++) if (best < 0 || acf[lag] > acf[best]) best = lag;
        if (best < 0 || acf[best] < MIN_PEAK) {
            return new Periodicity(false, Double.NaN, best < 0 ? 0 : acf[best], String.format(Locale.ROOT,
                    "%d collapses without a period (autocorrelation peak %.2f < %.2f)", collapses.size(), best < 0 ? 0 : acf[best], MIN_PEAK));
        }
        double w0 = Math.max(0, acf[best - 1]);
        double w1 = acf[best];
        double w2 = best + 1 < acf.length ? Math.max(0, acf[best + 1]) : 0;
        double lag = ((best - 1) * w0 + best * w1 + (best + 1) * w2) / (w0 + w1 + w2);
        double period = lag * intervalS;
        return new Periodicity(true, period, acf[best], String.format(Locale.ROOT,
                "%d collapses, every ~%.1f s (autocorrelation %.2f at that lag)", collapses.size(), period, acf[best]));
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
