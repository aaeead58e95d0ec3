package dev.jccl.verbs.shm;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** process_vm_readv through FFM, read from this very process (the kernel treats it like any peer of the same user). */
@Tag("unit")
class CrossMemoryReaderTest {
    private static final long PID = ProcessHandle.current().pid();

    @BeforeEach
    void linuxOnly() {
        Assumptions.assumeTrue(CrossMemoryReader.supported(), "process_vm_readv exists on Linux only");
    }

    @Test
    void copiesPrivateMemoryByAddressExactly() {
        try (Arena arena = Arena.ofConfined()) {
            long bytes = (3 << 20) + 13; // several pages, odd length: the kernel may stop short at a page
            MemorySegment src = arena.allocate(bytes, 64);
            for (long i = 0; i < bytes; i++) src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            MemorySegment dst = arena.allocate(bytes + 16, 64);
            CrossMemoryReader reader = new CrossMemoryReader();
            assertTrue(reader.read(PID, src.address() + 1, bytes - 1, dst, 16), reader.error());
            assertEquals(-1, src.asSlice(1, bytes - 1).mismatch(dst.asSlice(16, bytes - 1)));
            assertEquals(0, dst.get(ValueLayout.JAVA_BYTE, 15), "nothing written before the target");
        }
    }

    @Test
    void anUnmappedAddressFailsWithTheReason() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(4096, 64);
            CrossMemoryReader reader = new CrossMemoryReader();
            assertFalse(reader.read(PID, 4096, 64, dst, 0)); // page 1 is never mapped
            assertTrue(reader.error().contains("EFAULT"), reader.error());
        }
    }

    @Test
    void aProcessThatIsGoneFailsWithTheReason() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(64, 64);
            CrossMemoryReader reader = new CrossMemoryReader();
            assertFalse(reader.read(Integer.MAX_VALUE - 1, dst.address(), 64, dst, 0)); // above any pid_max
            assertTrue(reader.error().contains("ESRCH"), reader.error());
        }
    }
}
