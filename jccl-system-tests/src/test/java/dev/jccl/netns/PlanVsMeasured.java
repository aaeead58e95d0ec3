package dev.jccl.netns;

import dev.jccl.plan.LinkSpec;
import dev.jccl.plan.PlanRequest;
import dev.jccl.plan.Planner;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.testkit.netns.NetnsCluster;
import dev.jccl.util.Sizes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code jccl plan} against measured allreduces on the namespace cluster (bench/plan-vs-measured.sh
 * runs this main). Each case is HOSTS:RATE:ALGO:MAXSIZE, e.g. {@code 2:1gbit:ring:64M}: every host
 * link shaped by a token bucket at RATE, 2 ranks per host, JCCL_ALGO=ALGO, sizes 64 KiB x 4^k up
 * to MAXSIZE, measured by {@link PlanRank} and predicted by {@link Planner#predictAllReduceNs} for
 * the same hosts x ranks and algorithm over {@link #interLink calibrated links}.
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

    private static final Pattern MEASURED = Pattern.compile("MEASURED bytes=(\\d+) ns=(\\d+) iters=(\\d+) ok=(\\w+)");

    private PlanVsMeasured() {}

    /** Sizes minBytes x 4^k up to maxBytes. */
    record Case(int hosts, String rate, String algorithm, long minBytes, long maxBytes) {
        static Case parse(String text) {
            String[] f = text.split(":");
            if (f.length != 4) throw new IllegalArgumentException("case '" + text + "': expected HOSTS:RATE:ALGO:MAXSIZE, e.g. 2:1gbit:ring:64M");
            return new Case(Integer.parseInt(f[0]), f[1].toLowerCase(Locale.ROOT), f[2], FIRST_SIZE, Sizes.parseBytes(f[3]));
        }

        List<Long> sizes() {
            List<Long> out = new ArrayList<>();
            for (long s = minBytes; s <= maxBytes; s *= 4) out.add(s);
            return out;
        }

        String name() {
            return hosts + "x" + RANKS_PER_HOST + " " + rate + " " + algorithm;
        }
    }

    record Row(Case c, long bytes, long predictedNs, long nominalNs, long measuredNs, int iters, boolean ok) {
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
        return String.format(Locale.ROOT, "%.1fMb/s,%s", rateBits(rate) / 1e6 * TCP_GOODPUT, STEP_LATENCY);
    }

    /** The intra-host link {@code jccl plan} is given: the shm preset's bandwidth at the step latency. */
    static String intraLink() {
        return INTRA_BANDWIDTH + "," + STEP_LATENCY;
    }

    /** The nominal link, as one would first write it: the tbf rate and the tcp preset's latency. */
    static String nominalLink(String rate) {
        return String.format(Locale.ROOT, "%.0fMb/s,30us", rateBits(rate) / 1e6);
    }

    static double rateBits(String rate) {
        double v = Double.parseDouble(rate.replaceAll("[a-z]+$", ""));
        if (rate.endsWith("gbit")) return v * 1e9;
        if (rate.endsWith("mbit")) return v * 1e6;
        throw new IllegalArgumentException("rate '" + rate + "': expected e.g. 1gbit or 200mbit");
    }

    static long predictNs(Case c, long bytes, String intra, String inter) {
        PlanRequest req = new PlanRequest(bytes, c.hosts(), RANKS_PER_HOST, LinkSpec.parse(intra), LinkSpec.parse(inter), REDUCE_GBPS);
        return Planner.predictAllReduceNs(req, c.algorithm());
    }

    /** Runs one case on {@code cluster} (its host count), shaping every link to the case's rate first. */
    static List<Row> run(NetnsCluster cluster, Case c, long launchTimeoutSeconds) throws InterruptedException {
        for (int h = 0; h < cluster.hosts(); h++) cluster.link(h).rate(c.rate());
        List<String> args = new ArrayList<>(List.of(Double.toString(SECONDS_PER_SIZE), Long.toString(MIN_BYTES_PER_SIZE)));
        for (long s : c.sizes()) args.add(Long.toString(s));
        // The full JIT (not fastStart): the reduction kernels use the Vector API, which only C2 compiles.
        JavaCommand rank = JavaCommand.main(PlanRank.class).jvmOptions("-XX:+UseSerialGC", "-Xmx256m").args(args.toArray(String[]::new));
        List<Row> rows = new ArrayList<>();
        try (ClusterJob job = ClusterJob.start(cluster, RANKS_PER_HOST, h -> cluster.address(0) + ":" + ClusterJob.STORE_PORT,
                Map.of("JCCL_ALGO", c.algorithm()), rank, launchTimeoutSeconds + "s")) {
            List<Integer> exits = job.await(launchTimeoutSeconds + 30);
            for (String line : job.lines(0, "MEASURED")) {
                Matcher m = MEASURED.matcher(line);
                if (!m.matches()) continue;
                long bytes = Long.parseLong(m.group(1));
                rows.add(new Row(c, bytes, predictNs(c, bytes, intraLink(), interLink(c.rate())), predictNs(c, bytes, "shm", nominalLink(c.rate())),
                        Long.parseLong(m.group(2)), Integer.parseInt(m.group(3)), Boolean.parseBoolean(m.group(4))));
            }
            if (rows.size() != c.sizes().size()) {
                throw new IllegalStateException(c.name() + ": " + rows.size() + " of " + c.sizes().size() + " sizes measured, launchers exited "
                        + exits + job.output());
            }
        } finally {
            for (int h = 0; h < cluster.hosts(); h++) cluster.link(h).clear();
        }
        return rows;
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
        int i = 0;
        while (i < cases.size()) {
            int hosts = cases.get(i).hosts();
            try (NetnsCluster cluster = NetnsCluster.start(hosts)) {
                for (; i < cases.size() && cases.get(i).hosts() == hosts; i++) {
                    List<Row> rows = run(cluster, cases.get(i), 240);
                    rows.forEach(r -> PlanTable.row(System.out, r));
                    all.addAll(rows);
                }
            }
        }
        PlanTable.summary(System.out, all);
        System.exit(all.stream().allMatch(Row::ok) ? 0 : 1);
    }
}
