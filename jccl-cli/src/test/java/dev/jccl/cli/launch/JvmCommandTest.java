package dev.jccl.cli.launch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A rank JVM the CLI starts gets the JCCL_JAVA_OPTS the command's own JVM got, before its class path. */
@Tag("unit")
class JvmCommandTest {
    @AfterEach
    void clear() {
        System.clearProperty("JCCL_JAVA_OPTS");
    }

    @Test
    void ranksGetTheExtraJvmOptions() {
        System.setProperty("JCCL_JAVA_OPTS", " -XX:StartFlightRecording=filename=/tmp/r-%p.jfr  -Dx=1 ");
        List<String> cmd = JvmCommand.jcclCli("devinfo");
        int cp = cmd.indexOf("-cp");
        assertEquals(List.of("-XX:StartFlightRecording=filename=/tmp/r-%p.jfr", "-Dx=1"), cmd.subList(cp - 2, cp));
        assertEquals(List.of(JvmCommand.CLI_MAIN_CLASS, "devinfo"), cmd.subList(cmd.size() - 2, cmd.size()));
    }

    @Test
    void withoutThemOnlyTheRequiredOptions() {
        List<String> cmd = JvmCommand.jcclCli("devinfo");
        assertEquals(JvmCommand.REQUIRED_OPTIONS, cmd.subList(1, cmd.indexOf("-cp")));
    }
}
