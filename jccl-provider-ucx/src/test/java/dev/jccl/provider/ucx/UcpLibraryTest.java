package dev.jccl.provider.ucx;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which libucp versions the struct layouts are trusted for, and what a refusal says. */
@Tag("unit")
class UcpLibraryTest {
    @Test
    void versionsFromOneThirteenUpToTwoAreAccepted() {
        assertNull(UcpLibrary.versionProblem(1, 13));
        assertNull(UcpLibrary.versionProblem(1, 17));
    }

    @Test
    void olderAndNextMajorVersionsAreRefusedWithTheReason() {
        String old = UcpLibrary.versionProblem(1, 12);
        assertNotNull(old);
        assertTrue(old.contains("1.12") && old.contains("1.13"), old);
        String next = UcpLibrary.versionProblem(2, 0);
        assertNotNull(next);
        assertTrue(next.contains("2.0") && next.contains("not supported"), next);
    }

    @Test
    void aMissingLibraryNamesTheInstallCommand() {
        String cause = UcpLibrary.missingCause("libucp.so.0: cannot open shared object file");
        assertTrue(cause.contains("apt-get install libucx0"), cause);
        assertTrue(cause.contains("libucp.so.0"), cause);
    }
}
