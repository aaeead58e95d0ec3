package dev.jccl.cli.tool;

import dev.jccl.cli.Main;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every toolkit command, and perf, refuses bad input with one line naming the flag and the limit,
 * before any rank starts: sizes the host cannot hold, unknown collectives and knobs, zero or
 * negative durations. Run in process: nothing here gets as far as launching.
 */
@Tag("unit")
class BadInputTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "perf allreduce -b 1T -e 2T      | -e/--maxbytes",
        "perf allreduce -e 12x           | -e/--maxbytes",
        "perf allreduce --timeout -5s    | --timeout",
        "perf allreduce --jit-warmup -1s | --jit-warmup",
        "perf nosuchtest                 | unknown command 'nosuchtest'",
        "perf write_bw -s 1T             | -s",
        "path nosuch --size 1M           | unknown collective 'nosuch'",
        "path allreduce --size 1T        | --size",
        "path allreduce --size 0         | --size",
        "path allreduce --buffer gpu     | --buffer",
        "stress --minutes 0              | --minutes",
        "stress --minutes -2             | --minutes",
        "stress --interval 0s            | --interval",
        "stress --size 1T                | --size",
        "stress --minutes abc            | --minutes",
        "doctor --soak -5s               | --soak",
        "doctor --skip nothing           | --skip",
        "doctor --pair-size 1T           | --pair-size",
        "doctor -N 0                     | -N/--ranks",
        "sweep nosuchknob                | unknown knob 'nosuchknob'",
        "sweep qps --values 0            | --values",
        "sweep buffsize --values 1T2     | --values",
        "sweep qps --sizes 1T            | --sizes",
        "topo -N -1                      | -N/--ranks",
        "topo --timeout never            | --timeout",
    })
    void refusesInOneLineNamingTheFlag(String command, String named) {
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true)).setOut(new PrintWriter(out, true));
        int rc = cli.execute(command.trim().split("\\s+"));
        String e = err.toString().strip();
        assertNotEquals(0, rc, command + " was accepted: " + out);
        assertEquals(1, e.lines().count(), command + " printed more than one line:\n" + e);
        assertTrue(e.contains(named.trim()), command + " does not name " + named + ": " + e);
        assertFalse(e.contains("Exception") || e.contains("\tat "), command + " shows a stack trace: " + e);
        assertEquals("", out.toString(), command + " printed to stdout before refusing");
    }
}
