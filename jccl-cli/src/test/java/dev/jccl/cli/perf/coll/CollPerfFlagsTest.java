package dev.jccl.cli.perf.coll;

import dev.jccl.cli.Main;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A bad timing flag is refused before any rank starts, in one line that names the flag. */
@Tag("unit")
class CollPerfFlagsTest {
    @ParameterizedTest
    @CsvSource({"--batches, 0, --batches", "--batches, many, --batches", "--batch-time, 0, --batch-time",
            "--batch-time, soon, --batch-time", "-n, 0, -n", "--jit-warmup, soon, --jit-warmup", "-z, 2, -z"})
    void aBadFlagIsRefusedNamingIt(String flag, String value, String named) {
        CommandLine cli = Main.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute("perf", "allreduce", flag, value);
        assertEquals(2, status, err.toString());
        String line = err.toString().strip();
        assertTrue(line.contains(named), line);
        assertEquals(1, line.lines().count(), "one line: " + line);
    }
}
