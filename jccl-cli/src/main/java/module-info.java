/**
 * The {@code jccl} command: launch, demo, devinfo, perf and plan. A client of the core's exports only
 * ({@code CliUsesOnlyExportsTest} keeps it so). picocli fills the commands' option fields by
 * reflection, hence the packages opened to it.
 */
module dev.jccl.cli {
    requires java.management;
    requires dev.jccl;
    requires info.picocli;
    requires HdrHistogram;

    opens dev.jccl.cli to info.picocli;
    opens dev.jccl.cli.demo to info.picocli;
    opens dev.jccl.cli.launch to info.picocli;
    opens dev.jccl.cli.perf to info.picocli;
    opens dev.jccl.cli.perf.coll to info.picocli;
    opens dev.jccl.cli.plan to info.picocli;
    opens dev.jccl.cli.train to info.picocli;
    opens dev.jccl.cli.tool to info.picocli;
    opens dev.jccl.cli.doctor to info.picocli;
    opens dev.jccl.cli.path to info.picocli;
    opens dev.jccl.cli.topo to info.picocli;
    opens dev.jccl.cli.sweep to info.picocli;
    opens dev.jccl.cli.stress to info.picocli;
}
