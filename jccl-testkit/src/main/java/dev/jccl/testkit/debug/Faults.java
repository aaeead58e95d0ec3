package dev.jccl.testkit.debug;

import dev.jccl.bootstrap.LaunchEnvironment;

/**
 * Where {@link DebugProvider} learns its {@link FaultSpec} and the rank it runs for, when it opens
 * a device. A provider sees only the knobs, which neither name the rank nor know this testkit-only
 * spec, so the spec travels beside them, strongest first:
 * <ol>
 *   <li>a binding of the opening thread (and the threads it starts), made by an in-process harness
 *       that runs ranks as threads: {@link #bind}, as {@code CommRanks.runWithFaults} does;</li>
 *   <li>a process-wide spec set by code ({@link #setProcessSpec}), e.g. by a conformance run;</li>
 *   <li>the system property or environment variable {@value #VARIABLE} of a rank's JVM, with the
 *       rank from the launcher's variables (RANK, SLURM_PROCID, ...), for child JVMs and
 *       {@code jccl launch} jobs.</li>
 * </ol>
 */
public final class Faults {
    /** The environment variable (or system property) a rank's JVM reads its spec from. */
    public static final String VARIABLE = "JCCL_FAULTS";

    /** A rank and its spec. */
    public record Binding(int rank, FaultSpec spec) {}

    private static final InheritableThreadLocal<Binding> BOUND = new InheritableThreadLocal<>();
    private static volatile FaultSpec processSpec;

    private Faults() {}

    /** Binds this thread (and threads it starts from now on) to {@code rank} under {@code spec}. */
    public static void bind(int rank, FaultSpec spec) {
        BOUND.set(new Binding(rank, spec));
    }

    public static void unbind() {
        BOUND.remove();
    }

    /** Sets (or, with null, clears) the spec used where no thread binding exists. */
    public static void setProcessSpec(FaultSpec spec) {
        processSpec = spec;
    }

    /** The binding in force on this thread now. */
    public static Binding current() {
        Binding b = BOUND.get();
        if (b != null) return b;
        FaultSpec spec = processSpec;
        if (spec == null) {
            String text = System.getProperty(VARIABLE, System.getenv(VARIABLE));
            spec = text == null ? FaultSpec.NONE : FaultSpec.parse(text);
        }
        return new Binding(rankFromLauncher(), spec);
    }

    private static int rankFromLauncher() {
        try {
            return LaunchEnvironment.fromSystem().rank();
        } catch (RuntimeException e) {
            return -1; // no launcher variables that make sense: only faults for every rank (*) apply
        }
    }
}
