package dev.jccl.cli.itest;

import dev.jccl.util.Deadline;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Where a launched job's prefixed output goes while it runs, so a test can wait for a line before
 * acting (killing a rank once it said it is ready) rather than sleeping a guessed time.
 */
final class LiveOutput {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(); // its methods are synchronized
    final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The first line starting with {@code prefix}, waiting for it at most {@code limit}. */
    String awaitLine(String prefix, Duration limit) throws InterruptedException {
        Deadline deadline = Deadline.after(limit.toNanos());
        while (true) {
            for (String line : text().split("\\R")) {
                if (line.startsWith(prefix)) return line;
            }
            if (deadline.expired()) fail("no line starting with '" + prefix + "' within " + limit + "; output:\n" + text());
            Thread.sleep(10);
        }
    }
}
