package dev.jccl.testkit.debug;

import java.util.EnumMap;
import java.util.Map;

/**
 * The random fault campaign: N seeded {@link CampaignRun}s, one line per run that did not end
 * correct, with the command that replays it, then the summary line
 * {@code N runs: A correct, B clear errors, C hangs, D wrong results}.
 *
 * <pre>bench/fault-campaign.sh N [--seed S]      (run i uses seed S + i; S defaults to 1)</pre>
 */
public final class FaultCampaign {
    private FaultCampaign() {}

    /** Counts per outcome of {@code runs} runs from {@code firstSeed}; prints the runs that were not correct. */
    public static Map<CampaignRun.Outcome, Integer> run(int runs, long firstSeed, boolean verbose) {
        Map<CampaignRun.Outcome, Integer> counts = new EnumMap<>(CampaignRun.Outcome.class);
        for (CampaignRun.Outcome o : CampaignRun.Outcome.values()) counts.put(o, 0);
        for (int i = 0; i < runs; i++) {
            long seed = firstSeed + i;
            long t0 = System.nanoTime();
            CampaignRun.Result r = CampaignRun.run(seed);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            counts.merge(r.outcome(), 1, Integer::sum);
            boolean bad = r.outcome() == CampaignRun.Outcome.HANG || r.outcome() == CampaignRun.Outcome.WRONG;
            if (bad || verbose) {
                 System.out.println("seed " + seed + ": " + r.outcome() + " in " + ms + " ms [" + r.setup() + "] " + r.detail().replace('\n', ' ')
                        + (bad ? "\n  replay: bench/fault-campaign.sh 1 --seed " + seed : ""));
            }
        }
        return counts;
    }

    public static String summary(int runs, Map<CampaignRun.Outcome, Integer> c) {
        return runs + " runs: " + c.get(CampaignRun.Outcome.CORRECT) + " correct, " + c.get(CampaignRun.Outcome.CLEAR_ERROR)
                + " clear errors, " + c.get(CampaignRun.Outcome.HANG) + " hangs, " + c.get(CampaignRun.Outcome.WRONG) + " wrong results";
    }

    public static void main(String[] args) {
        int runs = 20;
        long seed = 1;
        boolean verbose = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "-v", "--verbose" -> verbose = true;
                default -> runs = Integer.parseInt(args[i]);
            }
        }
        Map<CampaignRun.Outcome, Integer> counts = run(runs, seed, verbose);
        System.out.println(summary(runs, counts));
        boolean bad = counts.get(CampaignRun.Outcome.HANG) + counts.get(CampaignRun.Outcome.WRONG) > 0;
        System.exit(bad ? 1 : 0);
    }
}
