package dev.jccl.cli;

import dev.jccl.util.Sizes;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.Map;

/**
 * The options of every command that starts ranks on this host, so that one concept has one name
 * everywhere: how many ranks ({@code -N/--ranks}), over which provider ({@code -p/--transport}, as
 * the JCCL_TRANSPORT knob calls it; {@code --provider} is accepted too), and how long the job may run
 * ({@code --timeout}). Each command makes it with its own defaults, which its help then shows.
 */
public final class LocalRanksOptions {
    /** The transport that leaves JCCL_TRANSPORT to the environment: every provider, shm within a host, unless it says otherwise. */
    public static final String AUTO = "auto";

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(names = {"-N", "--ranks"}, paramLabel = "N", description = "ranks to start on this host (default ${DEFAULT-VALUE})")
    private Integer ranks;

    @Option(names = {"-p", "--transport"}, paramLabel = "PROVIDER",
            description = "provider the ranks use: shm, tcp, or another on the class path such as ucx (JCCL_TRANSPORT; default ${DEFAULT-VALUE})")
    private String transport;

    /** The name perf used before the commands agreed on one; kept working, out of the help. */
    @Option(names = "--provider", hidden = true, paramLabel = "PROVIDER")
    private void provider(String name) {
        transport = name;
    }

    @Option(names = "--timeout", paramLabel = "DURATION",
            description = "stop the job and fail after this, e.g. 30m; 0 = no limit (default ${DEFAULT-VALUE})")
    private String timeout;

    /** Options whose defaults are {@code ranks} (null: the command requires it), {@code transport} and {@code timeout}. */
    public LocalRanksOptions(Integer ranks, String transport, String timeout) {
        this.ranks = ranks;
        this.transport = transport;
        this.timeout = timeout;
    }

    /** The rank count; a command that requires it has already refused a missing one (see {@link #ranksGiven}). */
    public int ranks() {
        if (ranks == null) throw new IllegalStateException("-N/--ranks is required here");
        return ranks;
    }

    public String transport() {
        return transport;
    }

    public String timeout() {
        return timeout;
    }

    public long timeoutNs() {
        try {
            return Sizes.parseDurationNs(timeout);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--timeout: " + e.getMessage() + " (0 = no limit)");
        }
    }

    public boolean ranksGiven() {
        return given("--ranks");
    }

    public boolean transportGiven() {
        return given("--transport") || given("--provider");
    }

    /** Whether the command line named the option (by any of its names), rather than leaving its default. */
    private boolean given(String optionName) {
        return command.commandLine().getParseResult().hasMatchedOption(optionName);
    }

    /** Sets JCCL_TRANSPORT for the ranks to the chosen provider; {@link #AUTO} leaves it as the environment has it. */
    public void putTransport(Map<String, String> env) {
        if (!AUTO.equals(transport)) env.put("JCCL_TRANSPORT", transport);
    }

    /** Relaunches this CLI with {@code args} as {@link #ranks()} local ranks, bounded by {@code --timeout}; see {@link RankJob}. */
    public int launch(List<String> args, Map<String, String> env, boolean plainRank0) {
        return RankJob.launch(ranks(), args, env, timeoutNs(), plainRank0);
    }
}
