package dev.jccl.cli;

import dev.jccl.cli.launch.LaunchCommand;
import dev.jccl.cli.perf.PerfCommand;
import dev.jccl.cli.plan.PlanCommand;
import dev.jccl.cli.train.TrainDemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jccl} command. Each subcommand is a class of its own in this package or below. */
@Command(name = "jccl", mixinStandardHelpOptions = true, version = "jccl 0.1.0",
        description = "Collective communication for the JVM, and the tools around it.",
        subcommands = {
                CommandLine.HelpCommand.class,
                TrainDemoCommand.class,
                DevinfoCommand.class,
                LaunchCommand.class,
                PerfCommand.class,
                PlanCommand.class,
        })
public final class Main implements Runnable {
    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new Main());
        PerfCommand.registerTests(cli.getSubcommands().get("perf"));
        int rc = cli
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    // A bad knob, an unreachable peer, a timeout: say what and why, without a stack
                    // trace (JCCL_DEBUG=TRACE shows one).
                    cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + e.getMessage());
                    if ("TRACE".equalsIgnoreCase(System.getenv("JCCL_DEBUG"))) e.printStackTrace(cmd.getErr());
                    return 2;
                })
                .execute(args);
        System.exit(rc);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
