package dev.jccl.cli.plan;

import dev.jccl.plan.PlanRequest;
import dev.jccl.plan.Planner;
import dev.jccl.plan.SimResult;
import dev.jccl.plan.Simulator;

import java.util.ArrayList;
import java.util.List;

/** One {@code --simulate} result, or why an algorithm was not simulated at that rank count. */
record SimRow(int ranks, String algorithm, SimResult result, String skipped) {
    static List<SimRow> run(PlanJob job, List<Integer> rankCounts, long bytes) {
        PlanRequest base = job.request().withBytes(bytes);
        List<SimRow> out = new ArrayList<>();
        for (int n : rankCounts) {
            int l = base.ranksPerHost();
            if (n < 1 || n % l != 0 || n > PlanRequest.MAX_RANKS) {
                throw new IllegalArgumentException("--sim-ranks " + n + " is not a multiple of --ranks-per-host " + l + " up to " + PlanRequest.MAX_RANKS);
            }
            PlanRequest r = base.withHosts(n / l);
            for (String alg : Planner.ALGORITHMS) {
                try {
                    out.add(new SimRow(n, alg, Simulator.simulate(r, alg), null));
                } catch (IllegalArgumentException notHere) {
                    out.add(new SimRow(n, alg, null, notHere.getMessage()));
                }
            }
        }
        return out;
    }
}
