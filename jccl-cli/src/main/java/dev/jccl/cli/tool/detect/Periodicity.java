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
 * Last, collapses must fall on {@value #MIN_BEATS} of the period's beats at least, at least
 * {@value #MIN_ON_BEAT} of them on a beat, and, in a search that asks for more collapses than
 * {@value #MIN_COLLAPSES}, on more of the beats than as many collapses placed at random mostly do, so
 * that dips that correlate by chance are not read as a rhythm.
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
    /** A period must show at this share of its beats at least, and account for this share of the collapses ({@link #beats}). */
    public static final double MIN_BEATS = 0.75;
    public static final double MIN_ON_BEAT = 0.5;
    /** Random placements of the same collapses that a period's beats must beat ({@link #beatsByChance}). */
    static final int CHANCE_TRIALS = 40;
    /** ... and the share of them it must do better than. */
    static final double CHANCE_QUANTILE = 0.9;

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
        double[] kept = beats(dip, lag);
        // Against chance only where a search asks for more collapses (slices of an interval, where dips are cheap):
        // three whole intervals that stall evenly are a period, though three random points often fit one.
        double chance = minCollapses > MIN_COLLAPSES ? beatsByChance(dip, lag) : -1;
        if (kept[0] < MIN_BEATS || kept[1] < MIN_ON_BEAT || kept[0] <= chance) {
            return new Periodicity(false, Double.NaN, bestScore, String.format(Locale.ROOT,
                    "%d collapses without a period (every ~%.1f s would keep %.0f%% of its beats, as many collapses placed at"
                            + " random keep %.0f%% (9 in 10 of them at most), and have %.0f%% of them on a beat)",
                    collapses.size(), period, 100 * kept[0], 100 * chance, 100 * kept[1]));
        }
        return new Periodicity(true, period, bestScore, String.format(Locale.ROOT,
                "%d collapses, every ~%.1f s (autocorrelation %.2f around that lag)", collapses.size(), period, bestScore));
    }

    /**
     * How well collapses keep a period's beats, at the phase that hits most: beats at {@code phase +
     * m * lag} over the series, each hit by a collapse within a tenth of the period (at least one
     * point), trying lags within 10% of {@code lag}. Returns {share of beats hit, share of collapses on
     * a beat, beats hit}. A rhythm shows at most of its
     * beats and accounts for most collapses; dips that correlate at some lag by chance (a noisy
     * short run: 11 dips in 130 slices of an 8 s stress run scored 0.58 at 1.2 s) leave beats empty
     * or fall between them.
     */
    public static double[] beats(double[] dip, double lag) {
        int[] upTo = new int[dip.length + 1]; // upTo[i]: collapses before point i, so a window's count is one subtraction
        for (int i = 0; i < dip.length; i++) upTo[i + 1] = upTo[i] + (dip[i] > 0 ? 1 : 0);
        double[] best = {0, 0, 0};
        // The lag from the autocorrelation is a centroid, a few percent off; over ten beats that drifts
        // by more than the tolerance, so nearby lags are tried too.
        for (int k = -10; k <= 10; k++) {
            double[] b = beatsAt(upTo, lag * (1 + 0.01 * k));
            if (b[0] > best[0] || b[0] == best[0] && b[1] > best[1]) best = b;
        }
        return best;
    }

    /**
     * The share of beats that as many collapses as {@code dip} has, placed at random, keep for a period
     * near {@code lag}: the {@link #CHANCE_QUANTILE} quantile over {@link #CHANCE_TRIALS} placements (seeded by the series' length,
     * so one series always gets one answer). The search over phases and nearby lags finds some fit
     * in any placement, and in a short series with few beats a good one: what counts is doing better
     * than chance does.
     */
    static double beatsByChance(double[] dip, double lag) {
        int n = dip.length;
        int k = 0;
        for (double d : dip) if (d > 0) k++;
        java.util.Random r = new java.util.Random(31L * n + k);
        double[] shares = new double[CHANCE_TRIALS];
        for (int t = 0; t < CHANCE_TRIALS; t++) {
            double[] placed = new double[n];
            for (int c = 0; c < k; c++) {
                int at;
                do {
                    at = r.nextInt(n);
                } while (placed[at] > 0);
                placed[at] = 1;
            }
            shares[t] = beats(placed, lag)[0];
        }
        java.util.Arrays.sort(shares);
        return shares[(int) (CHANCE_QUANTILE * (CHANCE_TRIALS - 1))];
    }

    /**
     * {@link #beats} at exactly {@code lag}, over the collapse counts {@code upTo}: {share of beats hit,
     * share of collapses on a beat, beats hit}. Windows are visited in ascending order, so the
     * collapses on a beat are counted once each though neighbouring windows may overlap.
     */
    private static double[] beatsAt(int[] upTo, double lag) {
        int n = upTo.length - 1;
        int collapses = upTo[n];
        if (lag <= 0 || n == 0 || collapses == 0) return new double[] {0, 0, 0};
        int tol = Math.max(1, (int) Math.round(0.1 * lag));
        double[] best = {0, 0, 0};
        for (int phase = 0; phase < Math.max(1, (int) Math.ceil(lag)); phase++) {
            int beats = 0;
            int hit = 0;
            int on = 0;
            int countedTo = -1; // collapses up to this point are counted in on
            for (double t = phase; t < n; t += lag) {
                beats++;
                int c = (int) Math.round(t);
                int lo = Math.max(0, c - tol);
                int hi = Math.min(n - 1, c + tol);
                if (upTo[hi + 1] > upTo[lo]) hit++;
                int from = Math.max(lo, countedTo + 1);
                if (hi >= from) {
                    on += upTo[hi + 1] - upTo[from];
                    countedTo = hi;
                }
            }
            double share = beats == 0 ? 0 : (double) hit / beats;
            double covered = (double) on / collapses;
            if (share > best[0] || share == best[0] && covered > best[1]) best = new double[] {share, covered, hit};
        }
        return best;
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
