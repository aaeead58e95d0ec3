package dev.jccl.cli.tool;

import dev.jccl.cli.tool.detect.Collapses;
import dev.jccl.cli.tool.detect.Periodicity;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Collapse detection (below half the running median) and periodicity (autocorrelation) on
 * synthetic busbw series of one value per second, as stress measures them.
 */
@Tag("unit")
class CollapseAndPeriodTest {
    /** 120 one-second intervals of busbw ~10 with 5% noise, seeded so the test is the same every run. */
    private static double[] noise(long seed) {
        Random r = new Random(seed);
        double[] s = new double[120];
        for (int i = 0; i < s.length; i++) s[i] = 10 * (1 + 0.05 * r.nextGaussian());
        return s;
    }

    @Test
    void collapsesAreIntervalsBelowHalfTheRunningMedian() {
        double[] s = noise(1);
        s[20] = 3;
        s[55] = 4.9;
        s[90] = 5.5; // 55%: low, but not a collapse
        assertEquals(List.of(20, 55), Collapses.find(s, 0.5));
    }

    @Test
    void noiseHasNoCollapseAndNoPeriod() {
        for (long seed = 1; seed <= 20; seed++) {
            double[] s = noise(seed);
            assertEquals(List.of(), Collapses.find(s, 0.5), "seed " + seed);
            assertFalse(Periodicity.find(s, 1.0, 0.5).periodic(), "seed " + seed);
        }
    }

    @Test
    void stallsEveryTenSecondsGiveAPeriodOfTenSeconds() {
        double[] s = noise(2);
        for (int t = 7; t < s.length; t += 10) s[t] = 2;
        Periodicity p = Periodicity.find(s, 1.0, 0.5);
        assertTrue(p.periodic(), p.reason());
        assertEquals(10, p.periodS(), 2, p.reason());
    }

    @Test
    void aJitteredPeriodIsFoundWithinTwentyPercent() {
        Random jitter = new Random(3);
        for (double period : new double[] {8, 10, 12}) {
            double[] s = noise(4);
            // Each stall lands up to a second early or late, and sometimes spills into the next interval.
            for (double t = 5; t < s.length - 1; t += period) {
                int at = (int) Math.round(t + jitter.nextInt(3) - 1);
                s[at] = 2;
                if (jitter.nextBoolean()) s[at + 1] = 4;
            }
            Periodicity p = Periodicity.find(s, 1.0, 0.5);
            assertTrue(p.periodic(), period + ": " + p.reason());
            assertEquals(period, p.periodS(), 0.2 * period, period + ": " + p.reason());
        }
    }

    @Test
    void aQuarterSecondIntervalScalesThePeriod() {
        double[] s = noise(5);
        for (int t = 3; t < s.length; t += 40) s[t] = 1;
        Periodicity p = Periodicity.find(s, 0.25, 0.5);
        assertTrue(p.periodic(), p.reason());
        assertEquals(10, p.periodS(), 2, p.reason());
    }

    @Test
    void fewRandomCollapsesAreNotAPeriod() {
        double[] s = noise(6);
        s[13] = 1;
        s[71] = 1;
        Periodicity p = Periodicity.find(s, 1.0, 0.5);
        assertFalse(p.periodic(), p.reason());
        assertTrue(p.reason().contains("too few"), p.reason());
    }

    @Test
    void scatteredCollapsesWithoutARhythmAreNotAPeriod() {
        double[] s = noise(7);
        for (int t : new int[] {4, 9, 31, 33, 58, 97, 111}) s[t] = 1;
        Periodicity p = Periodicity.find(s, 1.0, 0.5);
        assertFalse(p.periodic(), p.reason());
    }

    @Test
    void shortStallsShowTheirPeriodInSlicesOfAnInterval() {
        // 120 s in slices of 0.1 s whose batches alternate 2 and 1 per slice (lumpy), a stall every 10 s.
        Random r = new Random(8);
        double[] s = new double[1200];
        for (int i = 0; i < s.length; i++) s[i] = (i % 2 == 0 ? 10 : 6) * (1 + 0.05 * r.nextGaussian());
        Periodicity lumpy = Periodicity.find(s, 0.1, 0.5, 20);
        assertFalse(lumpy.periodic(), "the lumpiness of batches is not a period: " + lumpy.reason());
        for (int t = 35; t < s.length; t += 100) s[t] = 1;
        Periodicity p = Periodicity.find(s, 0.1, 0.5, 20);
        assertTrue(p.periodic(), p.reason());
        assertEquals(10, p.periodS(), 2, p.reason());
    }

    @Test
    void aSeriesCollapsingAllTheTimeIsNoisyNotPeriodic() {
        Random r = new Random(9);
        double[] s = new double[120];
        for (int i = 0; i < s.length; i++) s[i] = r.nextBoolean() ? 10 : 2;
        Periodicity p = Periodicity.find(s, 1.0, 0.5);
        assertFalse(p.periodic(), p.reason());
    }

    @Test
    void stallsThatStretchTheirIntervalsArePlacedByTimeSoThePeriodIsTheirs() {
        // A 3 s stall every 10 s: 7 intervals of 1 s, then one that lasts the stall and collapses.
        Random r = new Random(5);
        java.util.List<Double> busbw = new java.util.ArrayList<>();
        java.util.List<Double> ends = new java.util.ArrayList<>();
        double t = 0;
        while (t < 120) {
            boolean stall = ((int) t) % 10 == 7;
            t += stall ? 3 : 1;
            busbw.add(stall ? 0.4 : 2.5 + r.nextDouble());
            ends.add(t);
        }
        double[] s = busbw.stream().mapToDouble(Double::doubleValue).toArray();
        double[] e = ends.stream().mapToDouble(Double::doubleValue).toArray();
        Periodicity byTime = Periodicity.find(s, e, 1.0, 0.5, 2);
        assertTrue(byTime.periodic(), byTime.reason());
        assertEquals(10, byTime.periodS(), 1, byTime.reason());
        Periodicity byIndex = Periodicity.find(s, 1.0, 0.5);
        assertTrue(!byIndex.periodic() || Math.abs(byIndex.periodS() - 10) > 1, "counted in intervals the period comes out short: " + byIndex.reason());
    }

    @Test
    void threeEvenDipsInSlicesOfAShortRunAreNoPeriodButManyAre() {
        // 8 s of 0.05 s slices ramping up as the JIT warms (1.4 to 5.9 GB/s), with 3 descheduled slices 1.5 s apart.
        Random r = new Random(11);
        double[] s = new double[160];
        for (int i = 0; i < s.length; i++) s[i] = Math.min(5.9, 1.4 + i * 0.06) * (1 + 0.05 * r.nextGaussian());
        for (int t = 40; t <= 100; t += 30) s[t] = 0.3;
        Periodicity bare = Periodicity.find(s, null, 0.05, 0.5, 2 * Soak.FINE_BINS, 3);
        assertFalse(bare.periodic(), "three dips keep only 3 of the 5 beats of 1.5 s in 8 s: " + bare.reason());
        Periodicity strict = Periodicity.find(s, null, 0.05, 0.5, 2 * Soak.FINE_BINS, Soak.MIN_SLICE_COLLAPSES);
        assertFalse(strict.periodic(), strict.reason());
        for (int t = 10; t < s.length; t += 30) s[t] = 0.3;
        Periodicity recurring = Periodicity.find(s, null, 0.05, 0.5, 2 * Soak.FINE_BINS, Soak.MIN_SLICE_COLLAPSES);
        assertTrue(recurring.periodic(), recurring.reason());
        assertEquals(1.5, recurring.periodS(), 0.1, recurring.reason());
    }

    @Test
    void dipsThatCorrelateByChanceInAShortRunAreNoPeriod() {
        // As a failed 8 s stress run: 130 slices of a ramp, 11 slices collapsed at random; their autocorrelation
        // can peak (0.58 at 1.2 s there), but most beats of such a period stay empty.
        for (int seed = 0; seed < 200; seed++) {
            Random r = new Random(seed);
            double[] s = new double[130];
            for (int i = 0; i < s.length; i++) s[i] = Math.min(5.4, 1.0 + i * 0.07) * (1 + 0.05 * r.nextGaussian());
            for (int k = 0; k < 11; k++) s[r.nextInt(s.length)] = 0.3;
            Periodicity p = Periodicity.find(s, null, 0.06, 0.5, 2 * Soak.FINE_BINS, Soak.MIN_SLICE_COLLAPSES);
            assertFalse(p.periodic(), "seed " + seed + ": " + p.reason());
        }
    }

    @Test
    void aRhythmHitsMostOfItsBeatsAndChanceDoesNot() {
        double[] rhythm = new double[130];
        for (int t = 7; t < rhythm.length; t += 20) rhythm[t] = 0.9;
        rhythm[57] = 0.9; // a stray dip between two beats
        rhythm[27] = 0;
        rhythm[28] = 0.9; // one beat a slice late
        double[] kept = Periodicity.beats(rhythm, 20);
        assertEquals(1.0, kept[0], 1e-9, "every beat is kept");
        assertEquals(7.0 / 8, kept[1], 1e-9, "all collapses but the stray one are on a beat");
        double[] chance = new double[130];
        for (int t : new int[] {3, 5, 8, 11, 12, 14, 20, 22, 25, 30, 33}) chance[t] = 0.9; // a bad second, not a rhythm
        double[] byChance = Periodicity.beats(chance, 20);
        assertTrue(byChance[0] < Periodicity.MIN_BEATS || byChance[1] < Periodicity.MIN_ON_BEAT,
                "beats " + byChance[0] + ", on a beat " + byChance[1]);
    }
}
