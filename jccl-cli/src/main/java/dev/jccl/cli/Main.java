package dev.jccl.cli;

import dev.jccl.cli.launch.LaunchCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jccl} command. Each subcommand is a class of its own in this package or below. */
@Command(name = "jccl", mixinStandardHelpOptions = true, version = "jccl 0.1.0",
        description = "Collective communication for the JVM, and the tools around it.",
        subcommands = {
                CommandLine.HelpCommand.class,
                LaunchCommand.class,
        })
public final class Main implements Runnable {
    public static void main(String[] args) {
        int rc = new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
        System.exit(rc);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
