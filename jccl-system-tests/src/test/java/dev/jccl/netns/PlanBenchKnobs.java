package dev.jccl.netns;

import dev.jccl.testkit.netns.NetnsCluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What bench/plan-vs-measured.sh passes {@link PlanVsMeasured} as system properties, besides the step latency. */
final class PlanBenchKnobs {
    /**
     * -Djccl.plan.cc (the script's PLAN_CC): the TCP congestion control of every namespace. Empty: a
     * loss-based one ({@link #LOSS_BASED}, the first that namespaces may use), else the root's. Not
     * bbr: it paces each flow at the bandwidth it last measured, and a ring's flows are bursts (one
     * chunk per channel and step, then a wait for the peer), so it paced them below the link. 4 hosts
     * x 2 at 1 Gbit, ring, 1/4/16 MiB: 1.09-1.21 / 1.18-1.39 / 1.12-1.27 the prediction over six runs
     * with bbr, 1.08 / 1.09 / 1.05 with reno; with bbr, neither jumbo frames nor all-tcp ranks sleeping
     * on their sockets changed it. The planner prices a link at its rate, as a loss-based sender fills it.
     * (jccl's own JCCL_TCP_CONGESTION, default auto, keeps the namespace's choice: its hosts' peers are not on loopback.)
     */
    static final String CONGESTION_CONTROL = System.getProperty("jccl.plan.cc", "");
    /** The kernel's default first; reno where a namespace may not use cubic (tcp_allowed_congestion_control). */
    static final List<String> LOSS_BASED = List.of("cubic", "reno");
    /**
     * -Djccl.plan.rounds (the script's PLAN_ROUNDS, default 1): every case this many times, each round
     * on fresh clusters, then the median ratio per size ({@link PlanTable#medians}). On a shared
     * 2-core machine one run's ratio at 1 MiB moved 0.77-1.08 between runs of the same case, with
     * the step latency its probe measured.
     */
    static final int ROUNDS = Integer.getInteger("jccl.plan.rounds", 1);
    /** -Djccl.plan.rank-env (the script's PLAN_RANK_ENV): space-separated K=V added to every rank's environment, e.g. JCCL_SPIN=0. */
    static final Map<String, String> RANK_ENV = keyValues(System.getProperty("jccl.plan.rank-env", ""));
    /** -Djccl.plan.rank-jvm (the script's PLAN_RANK_JVM): space-separated options added to every rank's JVM. */
    static final String[] RANK_JVM = words(System.getProperty("jccl.plan.rank-jvm", ""));

    private PlanBenchKnobs() {}

    /** Sets every namespace's congestion control as {@link #CONGESTION_CONTROL} says; returns the one in use. */
    static String congestionControl(NetnsCluster cluster) {
        if (!CONGESTION_CONTROL.isEmpty()) return cluster.congestionControl(CONGESTION_CONTROL);
        List<String> allowed = List.of(words(readOr("/proc/sys/net/ipv4/tcp_allowed_congestion_control", "")));
        return LOSS_BASED.stream().filter(allowed::contains).findFirst().map(cluster::congestionControl).orElseGet(cluster::congestionControl);
    }

    static String readOr(String path, String otherwise) {
        try {
            return Files.readString(Path.of(path)).trim();
        } catch (IOException e) {
            return otherwise;
        }
    }

    static String[] words(String text) {
        return text.isBlank() ? new String[0] : text.trim().split("\\s+");
    }

    static Map<String, String> keyValues(String text) {
        Map<String, String> out = new HashMap<>();
        for (String w : words(text)) {
            int eq = w.indexOf('=');
            if (eq < 1) throw new IllegalArgumentException("rank environment '" + w + "': expected KEY=VALUE");
            out.put(w.substring(0, eq), w.substring(eq + 1));
        }
        return out;
    }
}
