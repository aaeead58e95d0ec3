package dev.jccl.netns;

import dev.jccl.netns.PlanVsMeasured.Row;
import dev.jccl.cli.tool.detect.Stats;
import dev.jccl.util.Sizes;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The table bench/plan-vs-measured.sh prints: predicted against measured time per size, and what the gap at small sizes is. */
final class PlanTable {
    /** The target holds from this size up. */
    static final long LARGE = 1L << 20;
    static final double TARGET = 0.20;

    /** What each case's links and proxy did, printed under the table. */
    private static final List<String> NOTES = new ArrayList<>();

    private PlanTable() {}

    static synchronized void notes(PlanVsMeasured.Case c, List<String> lines) {
        for (String l : lines) NOTES.add(c.name() + ": " + l);
    }

    static void header(PrintStream out) {
        out.println("# predicted: Planner.predictAllReduceNs at the run's channels and chunk (column 'run') = jccl plan --hosts H"
                + " --ranks-per-host " + PlanVsMeasured.RANKS_PER_HOST + " --intra " + PlanVsMeasured.INTRA_BANDWIDTH + ",<alpha> --inter"
                + " <column 2> --reduce-bw " + PlanVsMeasured.REDUCE_GBPS + "; bandwidth = the tbf rate x "
                + String.format(Locale.ROOT, "%.4f", PlanVsMeasured.TCP_GOODPUT) + " (TCP goodput of a full frame)");
        out.println("# alpha (per message step, both links) is measured on the spot: fitted so that the planner's 4 KiB allreduce takes"
                + " the mean of about " + PlanRank.PROBE_ITERS + " 4 KiB probes interleaved with the size's calls; with +Nms (tcp data through a"
                + " delay proxy) --inter's latency is alpha + N ms, alpha fitted on the run's own (delayed) probe");
        out.println("# simulated: jccl plan --simulate's event simulation of the same schedules, chunks and slot credits at that alpha;"
                + " both follow a chunk's chain of links (only the ring links that cross hosts pay the network's alpha) and the slot credits");
        out.println("# fixed-alpha: the same with " + PlanVsMeasured.STEP_LATENCY + " per step; measured: slowest rank's mean of awaited"
                + " out-of-place float32 allreduces, JCCL_ALGO forced to the same algorithm; rank cores: CPU time of all ranks' JVMs over the"
                + " timed loop / its wall time (the machine's " + Runtime.getRuntime().availableProcessors() + " cores also run the launchers,"
                + " the router's forwarding and everything else)");
        out.printf(Locale.ROOT, "| %-28s | %-20s | %9s | %-13s | %8s | %12s | %12s | %14s | %12s | %6s | %9s | %5s | %10s |%n", "case", "--inter",
                "size", "run", "alpha us", "predicted ms", "simulated ms", "fixed-alpha ms", "measured ms", "ratio", "sim ratio", "iters",
                "rank cores");
        out.println("|" + "-".repeat(30) + "|" + "-".repeat(22) + "|" + "-".repeat(11) + "|" + "-".repeat(15) + "|" + "-".repeat(10) + "|"
                + "-".repeat(14) + "|" + "-".repeat(14) + "|" + "-".repeat(16) + "|" + "-".repeat(14) + "|" + "-".repeat(8) + "|"
                + "-".repeat(11) + "|" + "-".repeat(7) + "|" + "-".repeat(12) + "|");
    }

    static void row(PrintStream out, Row r) {
        out.printf(Locale.ROOT, "| %-28s | %-20s | %9s | %-13s | %8.0f | %12.2f | %12.2f | %14.2f | %12.2f | %6.2f | %9.2f | %5d | %10.2f |%s%n",
                r.c().name(),
                PlanVsMeasured.interLink(r.c().rate(), r.alphaNs() + r.c().delayMs() * 1_000_000).replaceAll("(\\d+)\\d{3}ns$", "$1us"),
                Sizes.formatBytes(r.bytes()), r.plan(), r.alphaNs() / 1e3, r.predictedNs() / 1e6, r.simulatedNs() / 1e6, r.fixedNs() / 1e6,
                r.measuredNs() / 1e6, r.ratio(), (double) r.measuredNs() / r.simulatedNs(), r.iters(), r.rankMilliCores() / 1e3,
                r.ok() ? "" : " WRONG RESULT");
        out.flush();
    }

    /** How many large sizes met the target, and the small sizes' gap as extra time per message step. */
    static void summary(PrintStream out, List<Row> rows) {
        synchronized (PlanTable.class) {
            for (String n : NOTES) out.println("# " + n);
        }
        for (int hosts : rows.stream().mapToInt(r -> r.c().hosts()).distinct().toArray()) {
            List<Row> large = rows.stream().filter(r -> r.bytes() >= LARGE && r.c().hosts() == hosts).toList();
            long within = large.stream().filter(r -> Math.abs(r.ratio() - 1) <= TARGET).count();
            double worst = large.stream().mapToDouble(r -> Math.abs(r.ratio() - 1)).max().orElse(0);
            int ranks = hosts * PlanVsMeasured.RANKS_PER_HOST;
            int cores = Runtime.getRuntime().availableProcessors();
            double busy = large.stream().mapToDouble(r -> r.rankMilliCores() / 1e3).average().orElse(0);
            // Reported, not judged: ranks that wait poll and back off, so CPU time is not work, and a link-bound case keeps cores busy too.
            String cpu = String.format(Locale.ROOT, "; %d ranks kept %.2f of the %d cores busy on average", ranks, busy, cores);
            long simWithin = large.stream().filter(r -> Math.abs((double) r.measuredNs() / r.simulatedNs() - 1) <= TARGET).count();
            long fixedWithin = large.stream().filter(r -> Math.abs((double) r.measuredNs() / r.fixedNs() - 1) <= TARGET).count();
            double pick = large.stream().mapToDouble(r -> Math.abs((double) r.ownNs() / r.predictedNs() - 1)).max().orElse(0);
            out.printf(Locale.ROOT, "# %d hosts, >= 1 MiB: %d of %d sizes within %.0f%% of the prediction (worst %.0f%% off); %d of the simulation; %d with the"
                    + " fixed alpha; the planner's own channels and chunk would change the prediction by at most %.0f%%%s%n", hosts, within,
                    large.size(), TARGET * 100, worst * 100, simWithin, fixedWithin, pick * 100, cpu);
        }
        for (Row r : rows) {
            if (r.bytes() >= LARGE) continue;
            int steps = steps(r);
            out.printf(Locale.ROOT, "# %s %s: measured %.2fx the prediction, %.0f us more per message step (%d steps)%n", r.c().name(),
                    Sizes.formatBytes(r.bytes()), r.ratio(), (r.measuredNs() - r.predictedNs()) / 1e3 / steps, steps);
        }
        out.println("# small sizes: alpha is one progress-thread wake-up per message step (JCCL_SPIN=auto does not spin with fewer cores"
                + " than runnable threads), on cores that every rank, launcher and the router's softirqs share, so it follows the load:"
                + " ms under load (tens of us expected idle); it is measured among each size's calls, but a wake-up's cost varies call to call, and"
                + " below 1 MiB that variance, not the bytes, is most of the time");
    }

    /**
     * Per case and size, the ratio of every round and their median, against the closed form and the
     * simulation; then the target counted on the medians. Rounds of one cell sit minutes apart on
     * fresh clusters, so the median is the cell's ratio under the machine's typical load, not its luckiest.
     */
    static void medians(PrintStream out, List<Row> rows) {
        Map<String, List<Row>> cells = new LinkedHashMap<>();
        for (Row r : rows) cells.computeIfAbsent(r.c().name() + "|" + r.bytes(), k -> new ArrayList<>()).add(r);
        out.printf(Locale.ROOT, "%n| %-28s | %9s | %-30s | %12s | %16s |%n", "case", "size", "ratio per round", "median ratio", "median sim ratio");
        out.println("|" + "-".repeat(30) + "|" + "-".repeat(11) + "|" + "-".repeat(32) + "|" + "-".repeat(14) + "|" + "-".repeat(18) + "|");
        Map<Integer, int[]> within = new TreeMap<>();
        for (List<Row> cell : cells.values()) {
            Row first = cell.getFirst();
            double median = Stats.median(cell.stream().mapToDouble(Row::ratio).toArray());
            double sim = Stats.median(cell.stream().mapToDouble(r -> (double) r.measuredNs() / r.simulatedNs()).toArray());
            StringBuilder each = new StringBuilder();
            for (Row r : cell) each.append(each.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.2f", r.ratio()));
            out.printf(Locale.ROOT, "| %-28s | %9s | %-30s | %12.2f | %16.2f |%n", first.c().name(), Sizes.formatBytes(first.bytes()), each, median, sim);
            if (first.bytes() < LARGE) continue;
            int[] counts = within.computeIfAbsent(first.c().hosts(), h -> new int[3]);
            counts[0]++;
            if (Math.abs(median - 1) <= TARGET) counts[1]++;
            if (Math.abs(sim - 1) <= TARGET) counts[2]++;
        }
        within.forEach((hosts, c) -> out.printf(Locale.ROOT, "# %d hosts, >= 1 MiB, median over %d rounds: %d of %d sizes within %.0f%% of the"
                + " prediction, %d of the simulation%n", hosts, PlanBenchKnobs.ROUNDS, c[1], c[0], TARGET * 100, c[2]));
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
