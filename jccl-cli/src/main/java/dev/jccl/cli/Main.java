package dev.jccl.cli;

import dev.jccl.cli.doctor.DoctorCommand;
import dev.jccl.cli.launch.LaunchCommand;
import dev.jccl.cli.perf.PerfCommand;
import dev.jccl.cli.path.PathCommand;
import dev.jccl.cli.stress.StressCommand;
import dev.jccl.cli.sweep.SweepCommand;
import dev.jccl.cli.topo.TopoCommand;
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
                DoctorCommand.class,
                PathCommand.class,
                TopoCommand.class,
                SweepCommand.class,
                StressCommand.class,
                PlanCommand.class,
        })
public final class Main implements Runnable {
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with its error handlers, for {@link #main} and for tests that run a command in process. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main());
        PerfCommand.registerTests(cli.getSubcommands().get("perf"));
        return cli
                .setCaseInsensitiveEnumValuesAllowed(true)
                // A mistyped flag, value or command: one line naming it (and where help is), not the whole usage text.
                .setParameterExceptionHandler((e, argv) -> {
                    CommandLine cmd = e.getCommandLine();
                    String name = cmd.getCommandSpec().qualifiedName();
                    String what = e.getMessage();
                    if (e instanceof CommandLine.UnmatchedArgumentException u && !cmd.getSubcommands().isEmpty()
                            && !u.getUnmatched().isEmpty()) {
                        what = "unknown command '" + u.getUnmatched().getFirst() + "'; known: "
                                + String.join(", ", cmd.getSubcommands().keySet());
                    }
                    cmd.getErr().println(name + ": " + what + " (see " + name + " --help)");
                    return 2;
                })
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    // A bad knob, an unreachable peer, a timeout: say what and why, without a stack
                    // trace (JCCL_DEBUG=TRACE shows one).
                    cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + e.getMessage());
                    if ("TRACE".equalsIgnoreCase(System.getenv("JCCL_DEBUG"))) e.printStackTrace(cmd.getErr());
                    return 2;
                });
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
