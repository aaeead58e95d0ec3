package dev.jccl.netns;

import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.testkit.netns.NetnsCluster;
import dev.jccl.util.AuthHandshake;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One job across a {@link NetnsCluster}: on every host, {@code jccl launch --nnodes H --node-rank h
 * --master-addr <host 0>} starting {@link NetRank} ranks, all inside the host's namespaces. What the
 * ranks say comes back on the launchers' stdout, "[rank] line".
 */
final class ClusterJob implements AutoCloseable {
    static final int STORE_PORT = 29500;
    private static final Pattern LINE = Pattern.compile("^\\[(\\d+)] (.*)$");

    private final List<ChildJvm> launchers = new ArrayList<>();
    private final int ranksPerHost;

    private ClusterJob(int ranksPerHost) {
        this.ranksPerHost = ranksPerHost;
    }

    /** Starts the job; {@code env} goes to every rank (JCCL_ALGO, JCCL_DEBUG, ...). */
    static ClusterJob start(NetnsCluster cluster, int ranksPerHost, Map<String, String> env, String... rankArgs) {
        return start(cluster, ranksPerHost, h -> cluster.address(0) + ":" + STORE_PORT, env, rankArgs);
    }

    /** With the store's address as host {@code h} sees it, "addr:port" (host 0 hosts it at its own address and STORE_PORT). */
    static ClusterJob start(NetnsCluster cluster, int ranksPerHost, IntFunction<String> storeOf, Map<String, String> env,
                            String... rankArgs) {
        return start(cluster, ranksPerHost, storeOf, env, JavaCommand.main(NetRank.class).fastStart().args(rankArgs), "90s");
    }

    /** Any rank command (e.g. one with the full JIT, for timing), under a launcher that gives up after {@code timeout}. */
    static ClusterJob start(NetnsCluster cluster, int ranksPerHost, IntFunction<String> storeOf, Map<String, String> env,
                            JavaCommand rankCommand, String timeout) {
        return start(cluster, ranksPerHost, storeOf, h -> env, rankCommand, timeout);
    }

    /** With an environment per host ({@code envOf.apply(h)}), e.g. the address its ranks advertise. */
    static ClusterJob start(NetnsCluster cluster, int ranksPerHost, IntFunction<String> storeOf, IntFunction<Map<String, String>> envOf,
                            JavaCommand rankCommand, String timeout) {
        ClusterJob job = new ClusterJob(ranksPerHost);
        String token = AuthHandshake.newToken();
        List<String> rank = rankCommand.toList();
        try {
            for (int h = 0; h < cluster.hosts(); h++) {
                Map<String, String> all = new HashMap<>(envOf.apply(h));
                all.put("JCCL_AUTH_TOKEN", token);
                all.putIfAbsent("JCCL_TIMEOUT", "60s");
                JavaCommand launch = JavaCommand.main("dev.jccl.cli.Main").fastStart().prefixedBy(cluster.exec(h))
                        .args("launch", "--nnodes", Integer.toString(cluster.hosts()), "--node-rank", Integer.toString(h),
                                "--master-addr", storeOf.apply(h).split(":")[0], "--master-port", storeOf.apply(h).split(":")[1],
                                "-N", Integer.toString(ranksPerHost), "--timeout", timeout, "--grace", "1s", "--");
                launch = launch.args(rank.toArray(String[]::new));
                job.launchers.add(ChildJvm.start(cluster.hostName(h), launch.toList(), all));
            }
        } catch (RuntimeException e) {
            job.close();
            throw e;
        }
        return job;
    }

    int ranks() {
        return launchers.size() * ranksPerHost;
    }

    /** Every launcher's exit status, after at most {@code seconds} in all. */
    List<Integer> await(long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Integer> out = new ArrayList<>();
        for (ChildJvm l : launchers) out.add(l.awaitExit(Math.max(1, deadline - System.nanoTime())));
        return out;
    }

    /** The lines of {@code rank} that start with {@code tag}, tag and all, in order. */
    List<String> lines(int rank, String tag) {
        List<String> out = new ArrayList<>();
        for (String line : launchers.get(rank / ranksPerHost).stdout().split("\\R")) {
            Matcher m = LINE.matcher(line);
            if (m.matches() && Integer.parseInt(m.group(1)) == rank && m.group(2).startsWith(tag)) out.add(m.group(2));
        }
        return out;
    }

    /** Waits (at most {@code seconds}) until every rank has written a line starting with {@code tag}. */
    void awaitAll(String tag, long seconds) throws InterruptedException {
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < ranks(); r++) all.add(r);
        await(tag, all, seconds);
    }

    /** Waits (at most {@code seconds}) until each of {@code ranks} has written a line starting with {@code tag}. */
    void await(String tag, List<Integer> ranks, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            boolean all = true;
            for (int i = 0; i < ranks.size() && all; i++) all = !lines(ranks.get(i), tag).isEmpty();
            if (all) return;
            if (System.nanoTime() > deadline) throw new AssertionError("not every rank of " + ranks + " said " + tag + " within " + seconds + " s" + output());
            Thread.sleep(20);
        }
    }

    /** Both streams of every launcher, for failure messages. */
    String output() {
        StringBuilder b = new StringBuilder();
        for (ChildJvm l : launchers) b.append(l.output());
        return b.toString();
    }

    @Override
    public void close() {
        for (ChildJvm l : launchers) l.close();
    }
}
