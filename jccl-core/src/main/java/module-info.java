/**
 * jccl: collective communication for the JVM over a verbs-shaped transport.
 *
 * <p>What a client may use: the public API ({@code dev.jccl}: {@code Jccl}, {@code Communicator},
 * {@code Work}, value types and the exception tree), the data-parallel training helper
 * ({@code ddp}), the verbs SPI ({@code verbs}) that providers in other modules implement, the
 * rendezvous store and launcher environments ({@code bootstrap}), typed knobs ({@code config}),
 * the debug log, timelines and the JSON writer ({@code trace}), and a JDK-only toolbox
 * of sizes, deadlines and the job-token handshake ({@code util}) that tools and providers share, and
 * the planner ({@code plan}: predicted and simulated collective times over a modelled cluster).
 *
 * <p>What stays inside: the runtime ({@code comm}), the schedules and tuner ({@code algo}), the
 * executor ({@code exec}), the reduction kernels ({@code reduce}), the code every provider shares
 * ({@code verbs.base}, exported to the UCX provider's module only), the flight-recorder event
 * classes ({@code trace.event}: read through JFR, never as classes) and the two providers
 * themselves, which are reached only through {@link java.util.ServiceLoader}. Keeping them
 * unexported lets them change without a client noticing, and keeps the one seam to a transport
 * the SPI.
 */
// The qualified export below names a module built after this one; javac cannot see it here and
// would warn "module not found" (an error, since main code compiles without warnings).
@SuppressWarnings("module")
module dev.jccl {
    requires jdk.incubator.vector;
    requires jdk.jfr;
    requires jdk.net;

    exports dev.jccl;
    exports dev.jccl.ddp;
    exports dev.jccl.verbs;
    exports dev.jccl.bootstrap;
    exports dev.jccl.config;
    exports dev.jccl.trace;
    exports dev.jccl.util;
    exports dev.jccl.plan;
    // Shared provider code (QP state machine, region table, completion queue) for the UCX provider module.
    exports dev.jccl.verbs.base to dev.jccl.provider.ucx;

    uses dev.jccl.verbs.VerbsProvider;

    provides dev.jccl.verbs.VerbsProvider with dev.jccl.verbs.shm.ShmProvider, dev.jccl.verbs.tcp.TcpProvider;
}
