package dev.jccl.cli.train;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** The demo refuses a --trace or --report path it could not write before any rank starts training. */
@Timeout(30)
@Tag("unit")
class OutputPathCheckTest {
    @Test
    void aMissingDirectoryIsRefusedAndNothingIsCreated(@TempDir Path dir) {
        Path file = dir.resolve("absent/report.html");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TrainDemoCommand.checkWritable(file, "--report"));
        assertTrue(e.getMessage().startsWith("--report " + file + " cannot be written: no directory"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("absent")));
    }

    @Test
    void aDirectoryIsRefused(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TrainDemoCommand.checkWritable(dir, "--trace"));
        assertTrue(e.getMessage().endsWith("is a directory"), e.getMessage());
    }

    @Test
    void aWritablePathPassesAndLeavesNoFileBehind(@TempDir Path dir) throws Exception {
        Path fresh = dir.resolve("trace.json");
        TrainDemoCommand.checkWritable(fresh, "--trace");
        assertFalse(Files.exists(fresh), "the probe must not leave an empty file");
        Path existing = Files.writeString(dir.resolve("old.html"), "keep");
        TrainDemoCommand.checkWritable(existing, "--report");
        assertEquals("keep", Files.readString(existing), "an existing file is opened, not truncated, by the check");
    }
}
