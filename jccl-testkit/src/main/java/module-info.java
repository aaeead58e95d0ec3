/**
 * The test kit: the provider conformance suite, the one harness that starts ranks (threads, or
 * real JVMs through launch variables or a launcher command), and in-memory collectives for testing
 * the training helper. It reaches jccl only through the core's exports, as any provider or client
 * in another module would.
 */
module dev.jccl.testkit {
    requires transitive dev.jccl;
    requires transitive org.junit.jupiter.api;
    requires org.junit.jupiter.params;

    exports dev.jccl.testkit;
    exports dev.jccl.testkit.ddp;
    exports dev.jccl.testkit.jvm;
    exports dev.jccl.testkit.debug;
    exports dev.jccl.testkit.netns;

    provides dev.jccl.verbs.VerbsProvider with dev.jccl.testkit.debug.DebugProvider;
}
