package dev.jccl.cli;

import dev.jccl.bootstrap.LaunchEnvironment;
import dev.jccl.cli.launch.JvmCommand;
import dev.jccl.cli.launch.LaunchResult;
import dev.jccl.cli.launch.Launcher;
import dev.jccl.config.Config;
import dev.jccl.trace.Log;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Lets a subcommand run as a multi-rank job by itself: started by hand, it relaunches this same CLI
 * as {@code ranks} local processes through the launcher; started by a launcher (RANK and WORLD_SIZE
 * are set), it is one of those ranks.
 */
public final class RankJob {
    private RankJob() {}

    /** True when this process is one rank of a launched job. */
    public static boolean insideJob() {
        return System.getenv("RANK") != null && System.getenv("WORLD_SIZE") != null;
    }

    /**
     * Applies the debug knobs with this rank's number already known, so JCCL_DEBUG_FILE's %r names
     * this rank's own file: the rendezvous, which would set it, comes later (and logs too).
     */
    public static void configureLog(Config config) {
        if (insideJob()) Log.setRank(LaunchEnvironment.fromSystem().rank());
        Log.configure(config);
    }

    /**
     * Starts {@code ranks} copies of this CLI with {@code args} and waits for them. Returns the
     * launcher's exit code: 0, or the failed rank's status (its message already printed).
     */
    public static int launch(int ranks, List<String> args, Map<String, String> env, long timeoutNs) {
        return launch(ranks, args, env, timeoutNs, false);
    }

    /** As above; with {@code plainRank0} rank 0's stdout is passed through unprefixed (its JSON stays JSON). */
    public static int launch(int ranks, List<String> args, Map<String, String> env, long timeoutNs, boolean plainRank0) {
        List<String> cmd = new ArrayList<>(JvmCommand.jcclCli(args.toArray(String[]::new)));
        Launcher.Builder b = Launcher.builder().nprocPerNode(ranks).command(cmd).timeoutNs(timeoutNs)
                .output(System.out, System.err).plainStdoutRank(plainRank0 ? 0 : -1);
        env.forEach(b::env);
        LaunchResult r = b.build().run();
        if (!r.succeeded()) System.err.println("jccl: " + r.message());
        return r.launcherExitCode();
    }
}
