package dev.jccl.cli.launch;

import dev.jccl.bootstrap.LaunchEnvironment;
import dev.jccl.bootstrap.Rendezvous;
import dev.jccl.bootstrap.StoreException;
import dev.jccl.bootstrap.TcpStoreClient;
import dev.jccl.config.Config;
import dev.jccl.config.Knobs;

import java.nio.charset.StandardCharsets;

/**
 * A rank process for the launcher tests, started in a real JVM. Modes:
 * <ul>
 *   <li>{@code rendezvous}: checks its launch variables, meets the other ranks through the store the
 *       launcher hosts (counter + barrier), and (rank 0) checks that a wrong token is refused;</li>
 *   <li>{@code fail R S}: once all ranks met, rank R exits with status S; the others wait to be
 *       stopped while shrugging off SIGTERM (a shutdown hook that sleeps), so the launcher must
 *       escalate to SIGKILL;</li>
 *   <li>{@code sleep}: prints its pid and sleeps, to be killed from outside.</li>
 * </ul>
 */
public final class TestRank {
    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "rendezvous" -> rendezvous();
            case "fail" -> fail(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "sleep" -> {
                System.out.println("pid " + ProcessHandle.current().pid());
                Thread.sleep(60_000);
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static void rendezvous() {
        LaunchEnvironment env = LaunchEnvironment.fromSystem();
        Config cfg = Config.fromEnvironment();
        check(env.launcher() == LaunchEnvironment.Launcher.TORCHRUN, "launcher " + env.launcher());
        check(cfg.get(Knobs.AUTH_TOKEN).length() >= 32, "job token missing");
        check(cfg.get(Knobs.STORE_HOSTED), "JCCL_STORE_HOSTED not set");
        try (Rendezvous rv = Rendezvous.connect(env, cfg)) {
            check(!rv.hostsStore(), "rank " + env.rank() + " hosts a second store");
            rv.store().add("count", 1);
            rv.barrier();
            String count = new String(rv.store().get("count", 0), StandardCharsets.US_ASCII);
            check(count.equals(Integer.toString(env.worldSize())), "count " + count + " after the barrier");
            if (env.rank() == 0) {
                try {
                    TcpStoreClient.connect(env.masterAddr(), env.masterPort(), "wrong-token", 5_000_000_000L).close();
                    check(false, "a wrong token was accepted");
                } catch (StoreException expected) {
                    System.out.println("wrong token refused");
                }
            }
            System.out.println("rank " + env.rank() + " of " + env.worldSize() + " local " + env.localRank() + "/"
                    + env.localWorldSize() + " node " + env.nodeRank() + " count " + count);
            rv.barrier();
        }
    }

    private static void fail(int failingRank, int status) throws InterruptedException {
        Rendezvous rv = Rendezvous.fromEnvironment();
        int rank = rv.environment().rank();
        if (rank != failingRank) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Thread.sleep(60_000); // shrug off SIGTERM: only SIGKILL ends this rank
                } catch (InterruptedException ignored) {
                    // exit
                }
            }));
        }
        rv.barrier(); // every survivor has its hook before anyone fails
        if (rank == failingRank) {
            System.out.println("failing with " + status);
            System.exit(status);
        }
        System.out.println("waiting");
        Thread.sleep(60_000);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("check failed: " + what);
            System.exit(1);
        }
    }
}
