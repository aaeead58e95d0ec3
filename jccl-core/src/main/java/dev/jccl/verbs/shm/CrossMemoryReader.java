package dev.jccl.verbs.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Copies memory out of another process on this host with Linux cross-memory attach
 * ({@code process_vm_readv}): one copy, done by the kernel straight from the peer's pages into
 * ours, of memory the peer never shared. It is how a peer reads a chunk of a private send buffer in
 * place (a direct read of private memory, see {@code exec.DirectReads}), where the copying path
 * costs the sender a copy into our FIFO slot and us a read back out of it: on two cores each byte
 * then crosses between the cores once instead of twice. The kernel allows it only where the caller
 * could ptrace the peer (same user, no Yama restriction), which is why a queue pair probes it
 * before it offers it ({@link RemoteContext#crossReadable}).
 *
 * <p>One reader per thread at a time: its two iovecs and the errno slot are allocated once, so a
 * read allocates nothing.
 */
final class CrossMemoryReader {
    private static final MethodHandle READV = lookup();
    private static final StructLayout ERRNO_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = ERRNO_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    /** struct iovec: base, length. */
    private static final long IOVEC_BYTES = 16;

    private final MemorySegment local;
    private final MemorySegment remote;
    private final MemorySegment errno;
    private String error = "";

    CrossMemoryReader() {
        Arena arena = Arena.ofAuto();
        this.local = arena.allocate(IOVEC_BYTES, 8);
        this.remote = arena.allocate(IOVEC_BYTES, 8);
        this.errno = arena.allocate(ERRNO_STATE);
    }

    /** Whether this platform has the call at all (Linux, native access granted). */
    static boolean supported() {
        return READV != null;
    }

    /**
     * Copies {@code length} bytes at {@code address} of process {@code pid} into {@code dst} at
     * {@code dstOffset}; false, with {@link #error()} saying why, when the kernel refused or copied
     * less (the peer's address is unmapped, the peer is gone, or this process may not read it).
     */
    boolean read(long pid, long address, long length, MemorySegment dst, long dstOffset) {
        if (READV == null) {
            error = "process_vm_readv is not available here";
            return false;
        }
        long done = 0;
        while (done < length) { // the kernel may stop short at a page boundary; go on from there
            local.set(JAVA_LONG, 0, dst.address() + dstOffset + done);
            local.set(JAVA_LONG, 8, length - done);
            remote.set(JAVA_LONG, 0, address + done);
            remote.set(JAVA_LONG, 8, length - done);
            long n;
            try {
                n = (long) READV.invokeExact(errno, (int) pid, local, 1L, remote, 1L, 0L);
            } catch (Throwable e) {
                error = "process_vm_readv failed: " + e;
                return false;
            }
            if (n <= 0) {
                int code = (int) ERRNO.get(errno, 0L);
                error = "process_vm_readv of " + length + " bytes at 0x" + Long.toHexString(address) + " of pid " + pid
                        + (n == 0 ? " read nothing at byte " + done : " failed at byte " + done + ": " + describe(code));
                return false;
            }
            done += n;
        }
        return true;
    }

    /** Why the last {@link #read} failed. */
    String error() {
        return error;
    }

    private static String describe(int errno) {
        return switch (errno) {
            case 1 -> "EPERM (this process may not read the peer's memory: another user, or a ptrace restriction)";
            case 3 -> "ESRCH (no such process)";
            case 14 -> "EFAULT (the address is not mapped in the peer)";
            case 38 -> "ENOSYS (the kernel has no cross-memory attach)";
            default -> "errno " + errno;
        };
    }

    @SuppressWarnings("restricted") // a downcall is the point; without native access there is no cross-memory read and chunks are copied
    private static MethodHandle lookup() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) return null;
        if (!System.getProperty("os.arch", "").matches("amd64|x86_64|aarch64")) return null; // 64-bit iovecs, as laid out above
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("process_vm_readv").map(addr -> linker.downcallHandle(addr,
                    FunctionDescriptor.of(JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, JAVA_LONG, ValueLayout.ADDRESS,
                            JAVA_LONG, JAVA_LONG),
                    Linker.Option.captureCallState("errno"))).orElse(null);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }
}
