package dev.jccl.cli.launch;

import dev.jccl.cli.LocalRanksOptions;
import dev.jccl.config.Config;
import dev.jccl.config.ConfigException;
import dev.jccl.config.Knobs;
import dev.jccl.trace.Log;
import dev.jccl.util.Sizes;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code jccl launch}: starts the ranks of a job on this node, torchrun-style. */
@Command(name = "launch", mixinStandardHelpOptions = true, modelTransformer = LaunchCommand.TorchrunShape.class,
        description = {
                "Start the ranks of a job on this node, like torchrun.",
                "Each rank gets RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, NODE_RANK, MASTER_ADDR, "
                        + "MASTER_PORT and JCCL_AUTH_TOKEN; node 0 hosts the rendezvous store. Output lines are "
                        + "prefixed with [rank]. The first rank to fail stops the others.",
                "-p auto leaves JCCL_TRANSPORT as the environment sets it; torchrun's --nproc-per-node is -N.",
                "Example: jccl launch -N 4 -- java -cp app.jar my.Train"})
public final class LaunchCommand implements Callable<Integer> {
    /**
     * Everything from the first non-option word on is the rank command, even its own -options. The
     * rank count, optional where a command has a default, is required here, and torchrun's name for it
     * is accepted too.
     */
    static final class TorchrunShape implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            spec.parser().stopAtPositional(true);
            OptionSpec ranks = spec.findOption("--ranks");
            spec.remove(ranks);
            spec.addOption(ranks.toBuilder().names("-N", "--ranks", "--nproc-per-node").required(true)
                    .description("ranks to start on this node").build());
            return spec;
        }
    }

    @Mixin
    LocalRanksOptions local = new LocalRanksOptions(null, LocalRanksOptions.AUTO, "0");

    @Option(names = "--nnodes", defaultValue = "1", description = "nodes in the job (default: ${DEFAULT-VALUE})")
    int nnodes;

    @Option(names = "--node-rank", defaultValue = "0", description = "index of this node (default: ${DEFAULT-VALUE})")
    int nodeRank;

    @Option(names = "--master-addr", defaultValue = "127.0.0.1", description = "host of the store, node 0 (default: ${DEFAULT-VALUE})")
    String masterAddr;

    @Option(names = "--master-port", defaultValue = "0", description = "port of the store; 0 picks a free one (single node only)")
    int masterPort;

    @Option(names = "--grace", defaultValue = "3s", description = "time between SIGTERM and SIGKILL when stopping ranks (default: ${DEFAULT-VALUE})")
    String grace;

    @Parameters(arity = "1..*", paramLabel = "COMMAND", description = "the rank command and its arguments (-- before it is optional)")
    List<String> command;

    @Override
    public Integer call() {
        Launcher launcher;
        try {
            Config cfg = Config.fromEnvironment();
            Log.configure(cfg);
            Map<String, String> env = new HashMap<>();
            local.putTransport(env);
            Launcher.Builder b = Launcher.builder()
                    .nprocPerNode(local.ranks()).nnodes(nnodes).nodeRank(nodeRank)
                    .masterAddr(masterAddr).masterPort(masterPort)
                    .timeoutNs(local.timeoutNs()).graceNs(Sizes.parseDurationNs(grace))
                    .authToken(cfg.get(Knobs.AUTH_TOKEN))
                    .command(command);
            env.forEach(b::env);
            launcher = b.build();
        } catch (IllegalArgumentException | ConfigException e) {
            System.err.println(e.getMessage().startsWith("jccl launch") ? e.getMessage() : "jccl launch: " + e.getMessage());
            return 2;
        }
        LaunchedJob job;
        try {
            job = launcher.start();
        } catch (LaunchException e) {
            System.err.println(e.getMessage());
            return 1;
        }
        CountDownLatch reported = new CountDownLatch(1);
        // Ctrl-C or SIGTERM on the launcher: stop every rank, and let the main thread say so before the JVM halts.
        Thread hook = new Thread(() -> {
            job.stop("interrupted");
            try {
                reported.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                // halting anyway
            }
        }, "jccl-launch-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        LaunchResult result = job.await();
        if (!result.succeeded()) System.err.println(result.message());
        System.err.flush();
        reported.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is already running
        }
        return result.launcherExitCode();
    }
}
