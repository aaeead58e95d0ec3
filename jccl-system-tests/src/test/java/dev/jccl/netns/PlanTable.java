package dev.jccl.netns;

import dev.jccl.netns.PlanVsMeasured.Row;
import dev.jccl.util.Sizes;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** The table bench/plan-vs-measured.sh prints: predicted against measured time per size, and what the gap at small sizes is. */
final class PlanTable {
    /** The target holds from this size up. */
    static final long LARGE = 1L << 20;
    static final double TARGET = 0.20;

    private PlanTable() {}

    static void header(PrintStream out) {
        out.println("# predicted: Planner.predictAllReduceNs = jccl plan --hosts H --ranks-per-host " + PlanVsMeasured.RANKS_PER_HOST
                + " --intra " + PlanVsMeasured.intraLink() + " --inter <column 2> --reduce-bw " + PlanVsMeasured.REDUCE_GBPS
                + " (the tbf rate x " + String.format(Locale.ROOT, "%.4f", PlanVsMeasured.TCP_GOODPUT)
                + " TCP goodput; " + PlanVsMeasured.STEP_LATENCY + " per message step: a progress thread's wake-up on this machine)");
        out.println("# nominal: the same with --intra shm --inter <tbf rate>,30us, as one would first write it");
        out.println("# measured: slowest rank's mean of awaited out-of-place float32 allreduces, JCCL_ALGO forced to the same algorithm");
        out.printf(Locale.ROOT, "| %-24s | %-19s | %9s | %12s | %12s | %12s | %6s | %5s |%n", "case", "--inter (calibrated)", "size",
                "predicted ms", "nominal ms", "measured ms", "ratio", "iters");
        out.println("|" + "-".repeat(26) + "|" + "-".repeat(21) + "|" + "-".repeat(11) + "|" + "-".repeat(14) + "|" + "-".repeat(14) + "|"
                + "-".repeat(14) + "|" + "-".repeat(8) + "|" + "-".repeat(7) + "|");
    }

    static void row(PrintStream out, Row r) {
        out.printf(Locale.ROOT, "| %-24s | %-19s | %9s | %12.2f | %12.2f | %12.2f | %6.2f | %5d |%s%n", r.c().name(),
                PlanVsMeasured.interLink(r.c().rate()), Sizes.formatBytes(r.bytes()), r.predictedNs() / 1e6, r.nominalNs() / 1e6,
                r.measuredNs() / 1e6, r.ratio(), r.iters(), r.ok() ? "" : " WRONG RESULT");
        out.flush();
    }

    /** How many large sizes met the target, and the small sizes' gap as extra time per message step. */
    static void summary(PrintStream out, List<Row> rows) {
        for (int hosts : rows.stream().mapToInt(r -> r.c().hosts()).distinct().toArray()) {
            List<Row> large = rows.stream().filter(r -> r.bytes() >= LARGE && r.c().hosts() == hosts).toList();
            long within = large.stream().filter(r -> Math.abs(r.ratio() - 1) <= TARGET).count();
            double worst = large.stream().mapToDouble(r -> Math.abs(r.ratio() - 1)).max().orElse(0);
            int ranks = hosts * PlanVsMeasured.RANKS_PER_HOST;
            int cores = Runtime.getRuntime().availableProcessors();
            String cpu = ranks > 2 * cores ? "; " + ranks + " ranks on " + cores + " cores: the CPU, not the link, bounds the measurement" : "";
            out.printf(Locale.ROOT, "# %d hosts, >= 1 MiB: %d of %d sizes within %.0f%% of the prediction (worst %.0f%% off)%s%n", hosts,
                    within, large.size(), TARGET * 100, worst * 100, cpu);
        }
        for (Row r : rows) {
            if (r.bytes() >= LARGE) continue;
            int steps = steps(r);
            out.printf(Locale.ROOT, "# %s %s: measured %.2fx the prediction, %.0f us more per message step (%d steps)%n", r.c().name(),
                    Sizes.formatBytes(r.bytes()), r.ratio(), (r.measuredNs() - r.predictedNs()) / 1e3 / steps, steps);
        }
        out.println("# small sizes: below 1 MiB the measured time is mostly waiting, not bytes: every message step wakes a parked"
                + " progress thread (JCCL_SPIN=auto does not spin with fewer cores than runnable threads) on cores that every rank,"
                + " launcher and the router's softirqs share; a wake-up costs from tens of us to several ms with the load, more than"
                + " the one alpha the planner takes, which is fitted where the steps still overlap transfers");
    }

    /** Message steps one allreduce waits through, one after another. */
    static int steps(Row r) {
        int hosts = r.c().hosts();
        int local = PlanVsMeasured.RANKS_PER_HOST;
        int n = hosts * local;
        return switch (r.c().algorithm()) {
            case "hierarchical" -> 2 * (local - 1) + 2 * (hosts - 1);
            case "ring" -> 2 * (n - 1);
            default -> 2 * Integer.numberOfTrailingZeros(Integer.highestOneBit(n));
        };
    }
}
