package dev.jccl.cli.perf;

import dev.jccl.bootstrap.Rendezvous;
import dev.jccl.cli.LocalRanksOptions;
import dev.jccl.cli.RankJob;
import dev.jccl.cli.Inputs;
import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jccl perf <write_bw|send_bw|read_bw|write_lat|send_lat>}: perftest-style point-to-point
 * tests between two ranks. Started by hand it launches the two local ranks itself; under
 * {@code jccl launch} it is one of them.
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Point-to-point test in the style of perftest, between two ranks.",
                "MB/sec means 10^6 bytes per second."})
public final class P2pPerfCommand implements Callable<Integer> {
    private final PerfTest perfTest;

    @Option(names = "-a", description = "all sizes: powers of two from 2 B to 8 MiB")
    boolean allSizes;

    @Option(names = "-s", paramLabel = "SIZE", description = "message size, e.g. 8, 64K, 4M (default 65536 for bw, 2 for lat)")
    String size;

    @Option(names = "-n", paramLabel = "ITERS", description = "iterations per size (default 5000 bw, 1000 lat)")
    Integer iterations;

    @Option(names = "-q", paramLabel = "QPS", defaultValue = "1", description = "queue pairs (default ${DEFAULT-VALUE})")
    int qps;

    @Option(names = "-b", description = "bidirectional: both ranks send at once (bandwidth tests)")
    boolean bidirectional;

    @Option(names = {"-t", "--tx-depth"}, defaultValue = "128", description = "messages in flight (default ${DEFAULT-VALUE})")
    int txDepth;

    /** perftest runs between two ranks: -N is there for the shared vocabulary and must be 2. */
    @Mixin
    LocalRanksOptions local = new LocalRanksOptions(2, "shm", "120s");

    public P2pPerfCommand(PerfTest test) {
        this.perfTest = test;
    }

    @Override
    public Integer call() {
        PerfTest t = perfTest;
        String test = t.cliName();
        String provider = local.transport();
        if (local.ranks() != 2) throw new IllegalArgumentException("perf " + test + " runs between exactly 2 ranks, got -N " + local.ranks());
        List<Long> sizes = allSizes ? PerfOptions.allSizes()
                : List.of(size != null ? Inputs.size("-s", size, Inputs.maxBufferBytes(2, 2)) : (t.latency ? 2L : 65536L));
        int iters = iterations != null ? iterations : (t.latency ? 1000 : 5000);
        PerfOptions o = new PerfOptions(t, sizes, iters, qps, bidirectional, txDepth, provider);
        if (!RankJob.insideJob()) {
            List<String> args = new ArrayList<>(List.of("perf", test, "-n", Integer.toString(iters), "-q",
                    Integer.toString(qps), "-t", Integer.toString(txDepth), "-p", provider));
            if (allSizes) args.add("-a");
            if (size != null) args.addAll(List.of("-s", size));
            if (bidirectional) args.add("-b");
            // A SEND that finds no receive waits this long; a perf run must not fail on a slow repost.
            Map<String, String> env = System.getenv("JCCL_RNR_TIMEOUT") == null
                    ? Map.of("JCCL_RNR_TIMEOUT", "2s") : Map.of();
            return local.launch(args, env, false);
        }
        Config config = Config.fromEnvironment();
        RankJob.configureLog(config);
        try (Rendezvous rv = Rendezvous.fromEnvironment()) {
            int rank = rv.environment().rank();
            if (rv.environment().worldSize() != 2) {
                throw new IllegalArgumentException("perf runs between exactly 2 ranks, this job has "
                        + rv.environment().worldSize());
            }
            Exchange ex = new StoreExchange(rv.store(), rank, 1 - rank, config.get(Knobs.TIMEOUT_NS));
            PerfRunner.run(o, rank, config, ex, System.out);
        }
        return 0;
    }
}
