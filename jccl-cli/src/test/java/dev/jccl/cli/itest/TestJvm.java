package dev.jccl.cli.itest;

import dev.jccl.cli.launch.JvmCommand;

import java.util.List;

/** Command lines for rank mains of these tests, in JVMs tuned to start fast on a busy machine. */
final class TestJvm {
    /** C1 only and the serial collector: ranks here live seconds, so start-up dominates. */
    private static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private TestJvm() {}

    static List<String> command(Class<?> main, String... args) {
        return JvmCommand.java(FAST_START, main.getName(), List.of(args));
    }
}
