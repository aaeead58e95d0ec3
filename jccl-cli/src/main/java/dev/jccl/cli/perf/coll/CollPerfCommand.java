package dev.jccl.cli.perf.coll;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.Jccl;
import dev.jccl.ReduceOp;
import dev.jccl.cli.LocalRanksOptions;
import dev.jccl.cli.RankJob;
import dev.jccl.cli.Inputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jccl perf <collective>}: nccl-tests-style timing of one collective over local ranks. Started
 * by hand it launches {@code --ranks} local ranks itself; under {@code jccl launch} it is one of them.
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Collective test in the style of nccl-tests.",
                "busbw = algbw x 2(n-1)/n for allreduce, (n-1)/n for reduce_scatter, all_gather and alltoall,"
                        + " 1 for broadcast and reduce. GB/s means 10^9 bytes per second.",
                "-p auto leaves JCCL_TRANSPORT as the environment sets it: shm within a host unless it says otherwise."})
public final class CollPerfCommand implements Callable<Integer> {
    private final CollTest test;

    @Option(names = {"-b", "--minbytes"}, defaultValue = "8", description = "smallest size (default ${DEFAULT-VALUE})")
    String minBytes;
    @Option(names = {"-e", "--maxbytes"}, defaultValue = "32M", description = "largest size (default ${DEFAULT-VALUE})")
    String maxBytes;
    @Option(names = {"-f", "--stepfactor"}, defaultValue = "2", description = "size multiplier (default ${DEFAULT-VALUE})")
    long factor;
    @Option(names = {"-n", "--iters"}, defaultValue = "20", description = "timed calls per size at least (default ${DEFAULT-VALUE})")
    int iters;
    @Option(names = {"-w", "--warmup_iters"}, defaultValue = "5", description = "untimed calls per size (default ${DEFAULT-VALUE})")
    int warmup;
    @Option(names = {"-c", "--check"}, defaultValue = "1", description = "check results against a known pattern: 1 or 0 (default ${DEFAULT-VALUE})")
    int check;
    @Option(names = {"-o", "--op"}, defaultValue = "sum", description = "sum, prod, min, max, avg (default ${DEFAULT-VALUE})")
    String op;
    @Option(names = {"-d", "--datatype"}, defaultValue = "float",
            description = "float, double, half, bfloat16, int8, uint8, int32, int64 (default ${DEFAULT-VALUE})")
    String datatype;
    @Option(names = {"-r", "--root"}, defaultValue = "0", description = "root of broadcast and reduce (default ${DEFAULT-VALUE})")
    int root;
    @Mixin
    LocalRanksOptions local = new LocalRanksOptions(2, LocalRanksOptions.AUTO, "300s");
    @Option(names = {"-A", "--algo"}, description = "algorithm (JCCL_ALGO): ring, tree, halving_doubling, recursive_doubling, hierarchical, ...")
    String algo;
    @Option(names = "--channels", description = "channels (JCCL_NCHANNELS)")
    Integer channels;
    @Option(names = "--json", description = "print one JSON object instead of the table")
    boolean json;
    // Default 1, unlike nccl-tests: a call awaited at once is driven by its caller, while calls queued
    // behind one in flight measured 10x slower at 8 B (p50 100-240 us against 8-16 us), which is
    // what made the out-of-the-box figure 6-10x the careful benchmark's.
    @Option(names = {"-z", "--blocking"}, defaultValue = "1",
            description = "1: wait for each call before issuing the next, as an MPI call is timed; 0: issue a batch back to back,"
                    + " then wait, as nccl-tests' default (default ${DEFAULT-VALUE})")
    int blocking;
    @Option(names = "--bytes-per-size", defaultValue = "0", description = "time more calls than -n at small sizes, up to 20000,"
            + " until this many bytes moved (e.g. 4G; default ${DEFAULT-VALUE}: exactly -n)")
    String bytesPerSize;
    @Option(names = "--jit-warmup", defaultValue = "2s", description = "untimed calls for this long before the first size,"
            + " so the JIT has compiled the data path (default ${DEFAULT-VALUE}; 0 turns it off)")
    String jitWarmup;

    @Option(names = "--batch-time", defaultValue = "5ms", description = "timed calls run in batches about this long; the time"
            + " printed is the median over batches of the time per call (default ${DEFAULT-VALUE})")
    String batchTime;
    @Option(names = "--batches", defaultValue = "" + CollOptions.DEFAULT_BATCHES,
            description = "timed batches per size (default ${DEFAULT-VALUE})")
    int batches;
    @Option(names = "--stats", description = "also print the mean, and p50 and p99 of single calls' times, per size")
    boolean stats;

    private long jitWarmupNs() {
        return Inputs.durationOrZero("--jit-warmup", jitWarmup);
    }

    public CollPerfCommand(CollTest test) {
        this.test = test;
    }

    @Override
    public Integer call() {
        if (check != 0 && check != 1) throw new IllegalArgumentException("-c must be 0 or 1, got " + check);
        if (blocking != 0 && blocking != 1) throw new IllegalArgumentException("-z must be 0 or 1, got " + blocking);
        if (RankJob.insideJob() && (local.ranksGiven() || local.transportGiven() || algo != null || channels != null)) {
            // Under a launcher the job and its environment are already set; a flag here would be ignored.
            throw new IllegalArgumentException("-N, -p, -A and --channels choose how perf launches its own ranks; under"
                    + " jccl launch set the rank count there and JCCL_TRANSPORT, JCCL_ALGO or JCCL_NCHANNELS in the environment");
        }
        CollOptions o = new CollOptions(test, Inputs.sizeOrZero("-b/--minbytes", minBytes), Inputs.sizeOrZero("-e/--maxbytes", maxBytes),
                factor, iters, warmup,
                check != 0, ReduceOp.parse(op), DataType.parse(datatype), root, json,
                jitWarmupNs(), blocking != 0,
                Inputs.sizeOrZero("--bytes-per-size", bytesPerSize), Inputs.duration("--batch-time", batchTime), batches, stats);
        if (!RankJob.insideJob()) {
            int n = Inputs.ranks(local.ranks());
            // Each rank holds an input and an output of up to -e bytes: refuse what the host cannot hold
            // here, in one line, rather than let every rank die of an OutOfMemoryError.
            Inputs.sizeOrZero("-b/--minbytes", minBytes);
            if (o.maxBytes() > 0) Inputs.size("-e/--maxbytes", maxBytes, Inputs.maxBufferBytes(2, n));
            Map<String, String> env = new HashMap<>();
            local.putTransport(env);
            if (algo != null) {
                List<String> implementing = Jccl.algorithmsFor(test.apiName());
                if (Jccl.parseAlgorithms(algo).stream().noneMatch(implementing::contains)) {
                    throw new IllegalArgumentException("-A " + algo + " does not implement " + test.cliName() + "; algorithms for it: "
                            + implementing);
                }
                env.put("JCCL_ALGO", algo);
            }
            if (channels != null) env.put("JCCL_NCHANNELS", Integer.toString(channels));
            List<String> args = new ArrayList<>(List.of("perf", test.cliName(), "-b", minBytes, "-e", maxBytes,
                    "-f", Long.toString(factor), "-n", Integer.toString(iters), "-w", Integer.toString(warmup),
                    "-c", Integer.toString(check), "-o", op, "-d", datatype, "-r", Integer.toString(root), "--jit-warmup", jitWarmup,
                    "-z", Integer.toString(blocking),
                    "--bytes-per-size", bytesPerSize, "--batch-time", batchTime, "--batches", Integer.toString(batches)));
            if (json) args.add("--json");
            if (stats) args.add("--stats");
            return local.launch(args, env, json);
        }
        try (Communicator comm = Jccl.init()) {
            boolean printer = comm.rank() == 0;
            if (printer && !json) CollReport.header(System.out, o, comm.size(), "");
            List<CollResult> rs = CollRunner.run(comm, o, r -> {
                if (printer && !json) CollReport.row(System.out, o, r);
            });
            if (printer) {
                if (json) CollReport.json(System.out, o, comm.size(), rs);
                else CollReport.footer(System.out, rs);
            }
            long wrong = rs.stream().mapToLong(r -> Math.max(0, r.outOfPlace().wrong()) + Math.max(0, r.inPlace().wrong())).sum();
            return wrong == 0 ? 0 : 1;
        }
    }
}
