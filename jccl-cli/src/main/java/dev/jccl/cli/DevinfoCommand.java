package dev.jccl.cli;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.Port;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code jccl devinfo}: every provider with its devices and ports, in the shape of ibv_devinfo. */
@Command(name = "devinfo", mixinStandardHelpOptions = true,
        description = "List providers, their devices and ports (like ibv_devinfo); -v adds every knob.")
public final class DevinfoCommand implements Callable<Integer> {
    @Option(names = {"-v", "--verbose"}, description = "also print every JCCL_* knob with its value and source")
    boolean verbose;

    @Option(names = {"-p", "--transport"}, paramLabel = "PROVIDER", description = "only this provider")
    String provider;

    /** The older spelling, as the commands that start ranks also keep it. */
    @Option(names = "--provider", hidden = true, paramLabel = "PROVIDER")
    void providerAlias(String name) {
        provider = name;
    }

    @Override
    public Integer call() {
        Config config = Config.fromEnvironment();
        print(System.out, config, provider, verbose);
        return 0;
    }

    static void print(PrintStream out, Config config, String only, boolean verbose) {
        List<VerbsProvider> providers = Providers.all();
        if (providers.isEmpty()) out.println("no providers found on the class path");
        for (VerbsProvider p : providers) {
            if (only != null && !only.equals(p.name())) continue;
            Optional<String> why = p.unavailabilityCause(config);
            out.printf("provider: %s%s%n", p.name(), why.map(w -> "  (UNAVAILABLE: " + w + ")").orElse(""));
            if (why.isPresent()) continue;
            for (Device d : p.devices(config)) printDevice(out, d);
        }
        if (verbose) {
            out.println();
            out.println("knobs (value  [source]  meaning):");
            for (Config.Entry e : config.entries()) {
                String shown = e.knob() == Knobs.AUTH_TOKEN && !e.text().isEmpty() ? "<set, hidden>" : e.text();
                out.printf("  %-26s %-14s [%s]  %s%n", e.knob().name(), shown.isEmpty() ? "\"\"" : shown,
                        e.source().name().toLowerCase(java.util.Locale.ROOT), e.knob().doc());
            }
        }
    }

    private static void printDevice(PrintStream out, Device d) {
        out.printf("hca_id:\t%s%n", d.name());
        out.printf("\ttransport:\t\t%s%n", d.provider().toUpperCase(java.util.Locale.ROOT));
        out.printf("\tnode_guid:\t\t%s%n", d.guid());
        out.printf("\tphys_port_cnt:\t\t%d%n", d.ports().size());
        for (Port port : d.ports()) {
            out.printf("\t\tport:\t%d%n", port.number());
            out.printf("\t\t\tstate:\t\t\tPORT_%s%n", port.state());
            out.printf("\t\t\tactive_mtu:\t\t%d%n", port.mtu());
            out.printf("\t\t\tlink_rate:\t\t%s%n", port.linkRate());
            out.printf("\t\t\taddress:\t\t%s%n", port.address());
        }
    }
}
