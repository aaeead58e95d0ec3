package dev.jccl.testkit.jvm;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The command line of a JVM that runs jccl code the way this one does: the same {@code java} (from
 * java.home), this JVM's class path with every entry made absolute, and the options every jccl JVM
 * needs. Every test that forks a JVM builds its command here. Immutable; each {@code with...}
 * returns a new command.
 *
 * <p>A {@link #prefix} wraps the whole command (e.g. {@code ip netns exec host1}), so a test that
 * places ranks on other hosts changes where its JVMs run, not how they are built.
 *
 * <pre>{@code
 * List<String> cmd = JavaCommand.main(MyRank.class).fastStart().args("--size", "4M").toList();
 * }</pre>
 */
public record JavaCommand(List<String> prefix, List<String> jvmOptions, String mainClass, List<String> args) {
    /** Native memory access (the providers) and the Vector API (the kernels). */
    public static final List<String> REQUIRED_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED",
            "--add-modules", "jdk.incubator.vector");
    /** C1 only and the serial collector: test ranks live seconds, so start-up dominates on a busy machine. */
    public static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    /** What every JVM with the Vector API loaded prints first on stderr; output checks drop exactly this line. */
    public static final String INCUBATOR_WARNING = "WARNING: Using incubator modules: jdk.incubator.vector";

    public JavaCommand {
        prefix = List.copyOf(prefix);
        jvmOptions = List.copyOf(jvmOptions);
        Objects.requireNonNull(mainClass, "mainClass");
        args = List.copyOf(args);
    }

    /** {@code java <required options> -cp <this class path> main}, no arguments yet. */
    public static JavaCommand main(Class<?> main) {
        return main(main.getName());
    }

    public static JavaCommand main(String mainClass) {
        return new JavaCommand(List.of(), List.of(), mainClass, List.of());
    }

    /** The same command with {@code more} appended to its program arguments. */
    public JavaCommand args(String... more) {
        return new JavaCommand(prefix, jvmOptions, mainClass, concat(args, List.of(more)));
    }

    /** The same command with extra JVM options (after the required ones). */
    public JavaCommand jvmOptions(String... more) {
        return new JavaCommand(prefix, concat(jvmOptions, List.of(more)), mainClass, args);
    }

    /** With {@link #FAST_START}. */
    public JavaCommand fastStart() {
        return jvmOptions(FAST_START.toArray(String[]::new));
    }

    /** The same command run through {@code wrapper}, e.g. {@code List.of("ip", "netns", "exec", "h1")}. */
    public JavaCommand prefixedBy(List<String> wrapper) {
        return new JavaCommand(concat(wrapper, prefix), jvmOptions, mainClass, args);
    }

    /** The argv to hand to a ProcessBuilder or to the launcher. */
    public List<String> toList() {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(javaExecutable().toString());
        cmd.addAll(REQUIRED_OPTIONS);
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(absoluteClassPath());
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /** The {@code java} launcher of the running JVM. */
    public static Path javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** This JVM's class path, entries absolute, so a JVM started in another folder still finds it. */
    static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.isEmpty())
                .map(e -> Path.of(e).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
