package dev.jccl.cli.path;

import dev.jccl.Communicator;
import dev.jccl.Jccl;
import dev.jccl.cli.LocalRanksOptions;
import dev.jccl.cli.perf.coll.CollTest;
import dev.jccl.cli.Inputs;
import dev.jccl.cli.tool.OutputOptions;
import dev.jccl.cli.tool.RankFacts;
import dev.jccl.cli.tool.ToolJob;
import dev.jccl.cli.tool.ToolLaunch;
import dev.jccl.trace.DataPathCounters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jccl path <collective> --size S}: the data path of one collective on this job, hop by hop
 * (source memory, staging, provider, algorithm and chunks, every copy and who makes it), compared
 * with the ideal path for the topology; with {@code --measure} the figures come from the data-path
 * counters of one real call on every rank.
 */
@Command(name = "path", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Explain the data path of one collective, hop by hop, and compare it with the ideal path.",
                "--measure runs it once and fills in the copies, frames and syscalls counted in the code paths."})
public final class PathCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "COLLECTIVE", description = "allreduce, reduce_scatter, all_gather, broadcast, reduce, alltoall")
    String collective;
    @Option(names = "--size", defaultValue = "64M", paramLabel = "S", description = "bytes of the call, as perf counts them (default ${DEFAULT-VALUE})")
    String size;
    @Option(names = {"-A", "--algo"}, paramLabel = "ALGO", description = "force an algorithm (JCCL_ALGO)")
    String algo;
    @Option(names = "--buffer", defaultValue = "native", paramLabel = "KIND",
            description = "native (a MemorySegment), shared (from Communicator.allocate: peers on this host read it in place) or array (float[])"
                    + " (default ${DEFAULT-VALUE})")
    String buffer;
    @Option(names = "--measure", description = "run the collective once and report the counted copies, frames and syscalls")
    boolean measure;
    @Mixin
    LocalRanksOptions local = new LocalRanksOptions(2, LocalRanksOptions.AUTO, "300s");
    @Mixin
    OutputOptions output = new OutputOptions();

    @Override
    public Integer call() throws Exception {
        CollTest test;
        try {
            test = CollTest.parse(collective);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("COLLECTIVE: " + e.getMessage());
        }
        if (!buffer.equals("native") && !buffer.equals("array") && !buffer.equals("shared")) {
            throw new IllegalArgumentException("--buffer must be native, shared or array, got " + buffer);
        }
        boolean array = buffer.equals("array");
        boolean shared = buffer.equals("shared");
        int ranks = ToolLaunch.isRank() ? 1 : Inputs.ranks(local.ranks());
        // Out of place: input and output (all-gather and alltoall: n blocks), and for arrays the staging pair too.
        long limit = Inputs.maxBufferBytes(array ? 4 : 2, ranks);
        if (array) limit = Math.min(limit, Math.min(Runtime.getRuntime().maxMemory() / 3, 4L * (Integer.MAX_VALUE - 8)));
        long bytes = Inputs.size("--size", size, limit);
        Map<String, String> env = new HashMap<>();
        if (algo != null) {
            List<String> implementing = Jccl.algorithmsFor(test.apiName());
            if (Jccl.parseAlgorithms(algo).stream().noneMatch(implementing::contains)) {
                throw new IllegalArgumentException("-A/--algo " + algo + " does not implement " + test.cliName() + "; algorithms for it: " + implementing);
            }
            env.put("JCCL_ALGO", algo);
        }
        if (!ToolLaunch.isRank()) return ToolLaunch.startRanks(spec, local, env);
        try (ToolJob job = ToolJob.join()) {
            List<RankFacts> facts = RankFacts.gather(job, "path-facts", job.localSize());
            String mine = "";
            String plan = "";
            if (measure) {
                try (Communicator comm = job.communicator("path", Map.of())) {
                    DataPathCounters.Snapshot s = PathRun.measure(comm, test, bytes, array, shared);
                    mine = String.join(",", Arrays.stream(s.values()).mapToObj(Long::toString).toList());
                    plan = DataPathCounters.lastPlan();
                }
            }
            List<String> all = job.gather("path-counters", mine + ";" + plan);
            if (job.rank() != 0) return 0;
            List<DataPathCounters.Snapshot> counters = new ArrayList<>();
            String rank0Plan = all.getFirst().substring(all.getFirst().indexOf(';') + 1);
            if (measure) {
                for (String a : all) {
                    counters.add(new DataPathCounters.Snapshot(Arrays.stream(a.substring(0, a.indexOf(';')).split(","))
                            .mapToLong(Long::parseLong).toArray()));
                }
            }
            return PathExplain.report(test, bytes, array, shared, facts, counters, rank0Plan).emit(System.out, output.json, output.report);
        }
    }
}
