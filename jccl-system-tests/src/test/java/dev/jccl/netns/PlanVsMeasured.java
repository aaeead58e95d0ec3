package dev.jccl.netns;

import dev.jccl.plan.LinkSpec;
import dev.jccl.plan.PlanRequest;
import dev.jccl.plan.Planner;
import dev.jccl.plan.Simulator;
import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.testkit.netns.Link;
import dev.jccl.testkit.netns.NetnsCluster;
import dev.jccl.util.Sizes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code jccl plan} against measured allreduces on the namespace cluster (bench/plan-vs-measured.sh
 * runs this main). Each case is HOSTS:RATE:ALGO:MAXSIZE[:DELAY], e.g. {@code 2:1gbit:ring:64M} or
 * {@code 2:1gbit:ring:4M:5ms}: every host link shaped by a token bucket at RATE, 2 ranks per host,
 * JCCL_ALGO=ALGO, sizes 64 KiB x 4^k up to MAXSIZE, measured by {@link PlanRank} and predicted by
 * {@link Planner#predictAllReduceNs} for the same hosts x ranks, algorithm, channels and chunk (the
 * ones the run's tuner chose) over {@link #interLink calibrated links}. With DELAY, every tcp data
 * connection goes through a delay proxy in the router ({@link NetnsCluster#dataProxyCommand}), which
 * adds DELAY to every message one way, so the planner's inter-host latency is the step latency + DELAY.
 */
public final class PlanVsMeasured {
    static final int RANKS_PER_HOST = 2;
    static final long FIRST_SIZE = 64 << 10;
    /** Per size: calls for about this long, moving at least this much (many token-bucket bursts). */
    static final double SECONDS_PER_SIZE = 2.0;
    static final long MIN_BYTES_PER_SIZE = 24L << 20;
    /** What tbf counts of a full TCP segment on the veth: 1448 payload + 32 TCP (timestamps) + 20 IP + 14 Ethernet. */
    static final double TCP_GOODPUT = 1448.0 / 1514;
    /**
     * Alpha of one message step, on either link: not the wire's (tens of us through two veths) but a
     * progress thread's wake-up. With fewer cores than runnable threads JCCL_SPIN=auto does not spin,
     * so every step waits for a parked thread to be scheduled again on a shared core. 600us fits a
     * 2-core machine running 4 ranks under load (1 MiB at 1 and 0.2 Gbit, ring and hierarchical);
     * -Djccl.plan.alpha (the script's PLAN_ALPHA) sets another.
     */
    static final String STEP_LATENCY = System.getProperty("jccl.plan.alpha", "600us");
    /** Within a host: the shm preset's bandwidth, copied by one progress thread; CPU ranks reduce at a core's speed. */
    static final String INTRA_BANDWIDTH = "10GB/s";
    static final double REDUCE_GBPS = 4;

    private static final Pattern MEASURED = Pattern.compile("MEASURED bytes=(\\d+) ns=(\\d+) iters=(\\d+) ok=(\\w+) probe=(\\d+) cpu=(\\d+) plan=(.*)");
    private static final Pattern PLAN = Pattern.compile(".*?(\\d+) channel\\(s\\), chunk (.+)$");

    private PlanVsMeasured() {}

    /** Sizes minBytes x 4^k up to maxBytes. */
    record Case(int hosts, String rate, String algorithm, long minBytes, long maxBytes, long delayMs) {
        Case(int hosts, String rate, String algorithm, long minBytes, long maxBytes) {
            this(hosts, rate, algorithm, minBytes, maxBytes, 0);
        }

        static Case parse(String text) {
            String[] f = text.split(":");
            if (f.length != 4 && f.length != 5) {
                throw new IllegalArgumentException("case '" + text + "': expected HOSTS:RATE:ALGO:MAXSIZE[:DELAY], e.g. 2:1gbit:ring:64M"
                        + " or 2:1gbit:ring:4M:5ms");
            }
            long delay = f.length == 5 ? Sizes.parseDurationNs(f[4]) / 1_000_000 : 0;
            return new Case(Integer.parseInt(f[0]), f[1].toLowerCase(Locale.ROOT), f[2], FIRST_SIZE, Sizes.parseBytes(f[3]), delay);
        }

        List<Long> sizes() {
            List<Long> out = new ArrayList<>();
            for (long s = minBytes; s <= maxBytes; s *= 4) out.add(s);
            return out;
        }

        String name() {
            return hosts + "x" + RANKS_PER_HOST + " " + rate + " " + algorithm + (delayMs > 0 ? " +" + delayMs + "ms" : "");
        }
    }

    /**
     * One size, everything priced at the run's channels and chunk ({@code plan}, e.g. "2 ch 64 KiB"):
     * predicted with the step latency measured on the spot ({@code alphaNs}), with the fixed
     * {@link #STEP_LATENCY} ({@code fixedNs}), the planner's own pick of channels and chunk at that
     * alpha ({@code ownNs}), simulated on the real schedules at that alpha ({@code simulatedNs}), and measured.
     */
    record Row(Case c, long bytes, String plan, long alphaNs, long predictedNs, long simulatedNs, long fixedNs, long ownNs, long measuredNs,
               int iters, boolean ok, long rankMilliCores) {
        double ratio() {
            return (double) measuredNs / predictedNs;
        }
    }

    /**
     * The inter-host link {@code jccl plan} is given for a tbf-shaped veth: the rate times the TCP
     * goodput of a full segment (tbf counts headers), and the step latency; as its {@code --inter}
     * spelling, e.g. {@code 956.4Mb/s,600us}.
     */
    static String interLink(String rate) {
        return interLink(rate, Sizes.parseDurationNs(STEP_LATENCY));
    }

    /** At {@code alphaNs} per message (the delay proxy's delay included, where there is one). */
    static String interLink(String rate, long alphaNs) {
        return String.format(Locale.ROOT, "%.1fMb/s,%dns", rateBits(rate) / 1e6 * TCP_GOODPUT, alphaNs);
    }

    /** The intra-host link {@code jccl plan} is given: the shm preset's bandwidth at the step latency. */
    static String intraLink() {
        return INTRA_BANDWIDTH + "," + STEP_LATENCY;
    }

    static String intraLink(long alphaNs) {
        return INTRA_BANDWIDTH + "," + alphaNs + "ns";
    }

    static double rateBits(String rate) {
        double v = Double.parseDouble(rate.replaceAll("[a-z]+$", ""));
        if (rate.endsWith("gbit")) return v * 1e9;
        if (rate.endsWith("mbit")) return v * 1e6;
        throw new IllegalArgumentException("rate '" + rate + "': expected e.g. 1gbit or 200mbit");
    }

    static long predictNs(Case c, long bytes, String intra, String inter) {
        return Planner.predictAllReduceNs(request(c, bytes, intra, inter), c.algorithm());
    }

    private static PlanRequest request(Case c, long bytes, String intra, String inter) {
        return new PlanRequest(bytes, c.hosts(), RANKS_PER_HOST, LinkSpec.parse(intra), LinkSpec.parse(inter), REDUCE_GBPS);
    }

    /**
     * The step latency that makes the planner's 4 KiB allreduce take what the probe measured (the
     * same alpha on both links, plus {@code delayNs} on the network's where the delay proxy adds it):
     * alpha measured on the spot, as {@code jccl plan --measured} takes it. A delayed run's probe pays
     * the delay on the links of its chain that cross hosts, which the closed form charges the same way.
     */
    static long fitAlphaNs(Case c, long probeNs, long delayNs) {
        long lo = 0;
        long hi = Math.max(1, probeNs);
        for (int i = 0; i < 40 && hi - lo > 100; i++) {
            long mid = (lo + hi) / 2;
            long t = predictNs(c, PlanRank.PROBE_BYTES, intraLink(mid), interLink(c.rate(), mid + delayNs));
            if (t < probeNs) lo = mid;
            else hi = mid;
        }
        return lo;
    }

    /** A row from a rank's MEASURED line. */
    static Row row(Case c, Matcher m) {
        long bytes = Long.parseLong(m.group(1));
        long probe = Long.parseLong(m.group(5));
        long fixed = Sizes.parseDurationNs(STEP_LATENCY);
        long delay = c.delayMs() * 1_000_000;
        // Fitted on this run's own probe, delayed or not, so a delayed case needs no undelayed run beside it.
        long alpha = fitAlphaNs(c, probe, delay);
        Matcher p = PLAN.matcher(m.group(7).trim());
        long own = predictNs(c, bytes, intraLink(alpha), interLink(c.rate(), alpha + delay));
        if (!p.matches()) throw new IllegalStateException("no plan in " + m.group());
        int channels = Integer.parseInt(p.group(1));
        long chunk = Sizes.parseBytes(p.group(2).replace(" ", ""));
        PlanRequest req = request(c, bytes, intraLink(alpha), interLink(c.rate(), alpha + delay));
        long predicted = Planner.predictAllReduceNs(req, c.algorithm(), channels, chunk);
        long simulated = Simulator.simulate(req, c.algorithm(), channels, chunk).simulatedNs();
        long fixedNs = Planner.predictAllReduceNs(request(c, bytes, intraLink(fixed), interLink(c.rate(), fixed + delay)), c.algorithm(),
                channels, chunk);
        return new Row(c, bytes, channels + " ch " + Sizes.formatBytes(chunk), alpha, predicted, simulated, fixedNs, own, Long.parseLong(m.group(2)),
                Integer.parseInt(m.group(3)), Boolean.parseBoolean(m.group(4)), Long.parseLong(m.group(6)));
    }

    /** Runs one case on {@code cluster} (its host count), shaping every link to the case's rate first. */
    static List<Row> run(NetnsCluster cluster, Case c, long launchTimeoutSeconds) throws InterruptedException {
        for (int h = 0; h < cluster.hosts(); h++) cluster.link(h).rate(c.rate());
        List<String> args = new ArrayList<>(List.of(Double.toString(SECONDS_PER_SIZE), Long.toString(MIN_BYTES_PER_SIZE)));
        for (long s : c.sizes()) args.add(Long.toString(s));
        // The full JIT (not fastStart): the reduction kernels use the Vector API, which only C2 compiles.
        JavaCommand rank = JavaCommand.main(PlanRank.class).jvmOptions("-XX:+UseSerialGC", "-Xmx256m").jvmOptions(PlanBenchKnobs.RANK_JVM)
                .args(args.toArray(String[]::new));
        List<Row> rows = new ArrayList<>();
        List<Map<String, Long>> tcpBefore = new ArrayList<>();
        for (int h = 0; h < cluster.hosts(); h++) tcpBefore.add(cluster.link(h).tcpCounters());
        MachineCpu cpuBefore = MachineCpu.now();
        IntFunction<Map<String, String>> env = h -> {
            Map<String, String> e = new HashMap<>(PlanBenchKnobs.RANK_ENV);
            e.put("JCCL_ALGO", c.algorithm());
            if (c.delayMs() > 0) e.put(NetRank.ADVERTISE_ENV, cluster.dataProxyAddress(h) + ":" + NetnsCluster.DATA_PORT_BASE);
            return e;
        };
        try (ChildJvm proxy = c.delayMs() == 0 ? null
                : ChildJvm.start("data-proxy", cluster.dataProxyCommand(RANKS_PER_HOST, c.delayMs(), 0).toList(), Map.of())) {
            if (proxy != null) DelayedDataPathTest.awaitLine(proxy, "PROXIES ready");
            try (ClusterJob job = ClusterJob.start(cluster, RANKS_PER_HOST, h -> cluster.address(0) + ":" + ClusterJob.STORE_PORT, env, rank,
                    launchTimeoutSeconds + "s")) {
                List<Integer> exits = job.await(launchTimeoutSeconds + 30);
                for (String line : job.lines(0, "MEASURED")) {
                    Matcher m = MEASURED.matcher(line);
                    if (m.matches()) rows.add(row(c, m));
                }
                if (rows.size() != c.sizes().size()) {
                    throw new IllegalStateException(c.name() + ": " + rows.size() + " of " + c.sizes().size() + " sizes measured, launchers exited "
                            + exits + job.output());
                }
            }
            List<String> notes = new ArrayList<>(List.of("load average after the case " + loadAverage() + "; over the case the machine's "
                    + Runtime.getRuntime().availableProcessors() + " " + MachineCpu.now().since(cpuBefore)));
            if (proxy != null) notes.add("delay proxy forwarded " + DelayedDataPathTest.forwarded(proxy) + " bytes");
            for (int h = 0; h < cluster.hosts(); h++) {
                Map<String, Long> before = tcpBefore.get(h);
                StringBuilder d = new StringBuilder();
                cluster.link(h).tcpCounters().forEach((k, v) -> d.append(' ').append(k).append(' ').append(v - before.getOrDefault(k, 0L)));
                notes.add("host " + h + " tc " + cluster.link(h).stats() + "; tcp" + d);
            }
            PlanTable.notes(c, notes);
        } finally {
            for (int h = 0; h < cluster.hosts(); h++) cluster.link(h).clear();
        }
        return rows;
    }

    static String loadAverage() {
        return PlanBenchKnobs.readOr("/proc/loadavg", "unknown");
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) throw new IllegalArgumentException("usage: PlanVsMeasured HOSTS:RATE:ALGO:MAXSIZE...");
        NetnsCluster.unavailable().ifPresent(why -> {
            System.out.println("SKIPPING plan-vs-measured: " + why);
            System.exit(2);
        });
        List<Case> cases = new ArrayList<>();
        for (String a : args) cases.add(Case.parse(a));
        PlanTable.header(System.out);
        List<Row> all = new ArrayList<>();
        for (int round = 1; round <= PlanBenchKnobs.ROUNDS; round++) {
            int i = 0;
            while (i < cases.size()) {
                int hosts = cases.get(i).hosts();
                try (NetnsCluster cluster = NetnsCluster.start(hosts)) {
                    String cc = PlanBenchKnobs.congestionControl(cluster);
                    PlanTable.notes(cases.get(i), List.of("round " + round + ", a new cluster of " + hosts + " hosts: TCP congestion control " + cc
                            + "; tbf burst " + Link.burstFor(cases.get(i).rate()) + ", latency 50ms; load average " + loadAverage()));
                    for (; i < cases.size() && cases.get(i).hosts() == hosts; i++) {
                        List<Row> rows = run(cluster, cases.get(i), 240);
                        rows.forEach(r -> PlanTable.row(System.out, r));
                        all.addAll(rows);
                    }
                }
            }
        }
        PlanTable.summary(System.out, all);
        if (PlanBenchKnobs.ROUNDS > 1) PlanTable.medians(System.out, all);
        System.exit(all.stream().allMatch(Row::ok) ? 0 : 1);
    }
}
