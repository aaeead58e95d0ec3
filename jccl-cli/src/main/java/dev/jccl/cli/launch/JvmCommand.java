package dev.jccl.cli.launch;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Command lines that start a new JVM like this one: the same {@code java} (from java.home), the same
 * class path, and the JVM options every jccl process needs. Subcommands use it to start ranks that
 * run an internal subcommand of this same CLI. A CLI started from the module path starts its ranks
 * from the same module path, so they load the same named modules (and find providers through
 * their {@code provides}), not a class path it never had.
 */
public final class JvmCommand {
    /** Options every JVM running jccl code gets: native memory access (providers) and the Vector API (kernels). */
    public static final List<String> REQUIRED_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED",
            "--add-modules", "jdk.incubator.vector");
    public static final String CLI_MAIN_CLASS = "dev.jccl.cli.Main";
    /**
     * What every JVM with the Vector API loaded prints first. Said once per rank it is noise that
     * buries the job's own first lines, so the launcher and the jccl script drop exactly this line.
     */
    public static final String INCUBATOR_WARNING = "WARNING: Using incubator modules: jdk.incubator.vector";

    private JvmCommand() {}

    /** {@code java <required options> <jvmOptions> -cp <this class path> mainClass args...}. */
    public static List<String> java(List<String> jvmOptions, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable().toString());
        cmd.addAll(REQUIRED_OPTIONS);
        cmd.addAll(jvmOptions);
        Module cli = JvmCommand.class.getModule();
        String modulePath = System.getProperty("jdk.module.path");
        if (cli.isNamed() && modulePath != null && mainClass.equals(CLI_MAIN_CLASS)) {
            cmd.add("--enable-native-access=" + cli.getName() + ",dev.jccl");
            cmd.add("--module-path");
            cmd.add(absolute(modulePath));
            cmd.add("--module");
            cmd.add(cli.getName() + "/" + mainClass);
        } else {
            cmd.add("-cp");
            cmd.add(absoluteClassPath());
            cmd.add(mainClass);
        }
        cmd.addAll(args);
        return cmd;
    }

    /**
     * This jccl CLI in a new JVM, e.g. {@code jcclCli("perf", "rank", "--size", "4M")}, with the
     * options of JCCL_JAVA_OPTS: the jccl script gives them to the command's own JVM, and a rank
     * started from it must get them too, or {@code -XX:StartFlightRecording} would record only the
     * launching process and never a collective.
     */
    public static List<String> jcclCli(String... args) {
        return java(Config.fromEnvironment().get(Knobs.JAVA_OPTS), CLI_MAIN_CLASS, List.of(args));
    }

    /** This JVM's class path with every entry made absolute, so a rank started elsewhere still finds it. */
    static String absoluteClassPath() {
        return absolute(System.getProperty("java.class.path"));
    }

    private static String absolute(String path) {
        return Arrays.stream(path.split(File.pathSeparator))
                .filter(e -> !e.isEmpty())
                .map(e -> Path.of(e).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** The {@code java} launcher of the running JVM. */
    public static Path javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }
}
