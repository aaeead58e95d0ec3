package dev.jccl.cli;

import dev.jccl.cli.perf.PerfCommand;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every command that starts ranks spells rank count, transport and timeout alike, each with its own defaults. */
@Timeout(20)
@Tag("unit")
class LocalRanksOptionsTest {
    private static final List<List<String>> COMMANDS = List.of(List.of("demo"), List.of("demo", "ring"),
            List.of("perf", "allreduce"), List.of("perf", "write_bw"), List.of("launch"));

    private static CommandSpec parse(List<String> command, String... args) {
        CommandLine cli = new CommandLine(new Main());
        PerfCommand.registerTests(cli.getSubcommands().get("perf"));
        List<String> argv = new ArrayList<>(command);
        argv.addAll(List.of(args));
        if (command.getFirst().equals("launch")) argv.addAll(List.of("--", "true"));
        CommandLine.ParseResult r = cli.parseArgs(argv.toArray(String[]::new));
        while (r.hasSubcommand()) r = r.subcommand();
        return r.commandSpec();
    }

    private static Object value(CommandSpec spec, String option) {
        return spec.findOption(option).getValue();
    }

    @Test
    void everyCommandTakesTheSameNamesAndTheOldProviderSpellingStillWorks() {
        for (List<String> c : COMMANDS) {
            for (String name : List.of("-p", "--transport", "--provider")) {
                assertEquals("tcp", value(parse(c, "-N", "2", name, "tcp"), "--transport"), c + " " + name);
            }
            assertEquals(3, value(parse(c, "-N", "3"), "--ranks"), c.toString());
            assertEquals(3, value(parse(c, "--ranks", "3"), "--ranks"), c.toString());
            assertEquals("7s", value(parse(c, "-N", "2", "--timeout", "7s"), "--timeout"), c.toString());
        }
    }

    @Test
    void eachCommandKeepsItsOwnDefaults() {
        assertDefaults(List.of("demo"), 4, "shm", "300s");
        assertDefaults(List.of("demo", "ring"), 4, "shm", "120s");
        assertDefaults(List.of("perf", "allreduce"), 2, LocalRanksOptions.AUTO, "300s");
        assertDefaults(List.of("perf", "write_bw"), 2, "shm", "120s");
        CommandSpec launch = parse(List.of("launch"), "-N", "2");
        assertEquals(LocalRanksOptions.AUTO, value(launch, "--transport"));
        assertEquals("0", value(launch, "--timeout"));
    }

    private static void assertDefaults(List<String> command, int ranks, String transport, String timeout) {
        CommandSpec spec = parse(command);
        assertEquals(ranks, value(spec, "--ranks"), command.toString());
        assertEquals(transport, value(spec, "--transport"), command.toString());
        assertEquals(timeout, value(spec, "--timeout"), command.toString());
        String help = usage(spec);
        assertTrue(help.contains("(default " + ranks + ")") && help.contains("default " + transport + ")"), help);
        assertTrue(help.contains("-p, --transport=PROVIDER") && !help.contains("--provider"), help);
    }

    @Test
    void launchRequiresTheRankCountAndTakesTorchrunsNameForIt() {
        assertThrows(CommandLine.MissingParameterException.class, () -> parse(List.of("launch")));
        assertEquals(5, value(parse(List.of("launch"), "--nproc-per-node", "5"), "--ranks"));
        String help = usage(parse(List.of("launch"), "-N", "1"));
        assertTrue(help.contains("-N, --ranks, --nproc-per-node=N"), help);
        assertFalse(help.contains("null"), help);
    }

    private static String usage(CommandSpec spec) {
        StringWriter out = new StringWriter();
        spec.commandLine().usage(new PrintWriter(out));
        return out.toString();
    }
}
