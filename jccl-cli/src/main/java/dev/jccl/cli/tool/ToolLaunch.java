package dev.jccl.cli.tool;

import dev.jccl.cli.Inputs;
import dev.jccl.cli.LocalRanksOptions;
import dev.jccl.cli.RankJob;
import picocli.CommandLine.Model.CommandSpec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a toolkit command runs: started by hand it starts {@code -N} local ranks of itself, with the
 * same command line, through the launcher; rank 0 prints (its stdout passes through unprefixed, so
 * {@code --json} stays one JSON object). Under a launcher (jccl launch, SLURM, mpirun, or plain
 * RANK/WORLD_SIZE variables) it is one of the ranks, and -N/-p were the launcher's business.
 */
public final class ToolLaunch {
    private ToolLaunch() {}

    /** Whether this process should do the work itself (it is a rank) rather than start ranks. */
    public static boolean isRank() {
        return RankJob.insideJob();
    }

    /** Starts the ranks with this command's own arguments and returns the job's exit status. */
    public static int startRanks(CommandSpec spec, LocalRanksOptions local, Map<String, String> extraEnv) {
        int n = local.ranks();
        Inputs.ranks(n);
        Map<String, String> env = new HashMap<>(extraEnv);
        local.putTransport(env);
        List<String> args = spec.root().commandLine().getParseResult().originalArgs();
        return local.launch(args, env, true);
    }
}
