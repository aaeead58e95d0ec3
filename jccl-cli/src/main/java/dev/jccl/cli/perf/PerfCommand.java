package dev.jccl.cli.perf;

import dev.jccl.cli.perf.coll.CollPerfCommand;
import dev.jccl.cli.perf.coll.CollTest;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code jccl perf <test>}: perftest-style point-to-point tests and nccl-tests-style collective
 * tests. Each test is a subcommand with its tool's own flags (perftest's -b means bidirectional,
 * nccl-tests' -b the smallest size), so each keeps the flags people already type.
 */
@Command(name = "perf", mixinStandardHelpOptions = true,
        description = {"Performance tests.",
                "Point-to-point (perftest style): write_bw, send_bw, read_bw, write_lat, send_lat.",
                "Collectives (nccl-tests style): allreduce, reduce_scatter, all_gather, broadcast, reduce, alltoall."})
public final class PerfCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Adds one subcommand per test to the {@code perf} command line. */
    public static void registerTests(CommandLine perf) {
        for (PerfTest t : PerfTest.values()) perf.addSubcommand(t.cliName(), new P2pPerfCommand(t));
        for (CollTest t : CollTest.values()) perf.addSubcommand(t.cliName(), new CollPerfCommand(t));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
