package dev.jccl.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Reads what UCX prints about itself. Its print functions write to a {@code FILE *}; an
 * {@code open_memstream} stream collects that text in memory, so nothing reaches stdout.
 */
final class UcpText {
    private UcpText() {}

    /**
     * All of the address space, for reading what UCX hands a callback by address (headers, eager
     * data, callback parameters) and copying eager data into checked memory without making a
     * segment per message. Only addresses UCX gave us, with the lengths it gave, are read through
     * it, and only ranges the region table has checked are written.
     */
    @SuppressWarnings("restricted")
    static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** Calls {@code printer(handle, stream)} and returns the text it wrote. */
    static String print(MethodHandle printer, MemorySegment handle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bufPtr = arena.allocate(ADDRESS);
            MemorySegment sizePtr = arena.allocate(JAVA_LONG);
            MemorySegment stream = (MemorySegment) Ucp.OPEN_MEMSTREAM.invokeExact(bufPtr, sizePtr);
            if (stream.address() == 0) return "";
            printer.invoke(handle, stream);
            int closed = (int) Ucp.FCLOSE.invokeExact(stream);
            MemorySegment buf = bufPtr.get(ADDRESS, 0);
            String text = closed == 0 ? new String(bytes(buf, sizePtr.get(JAVA_LONG, 0)), StandardCharsets.UTF_8) : "";
            Ucp.FREE.invokeExact(buf);
            return text;
        } catch (Throwable t) {
            throw Ucp.fault("printing UCX information", t);
        }
    }

    /**
     * Copies {@code length} bytes at a native address UCX returned. Widening a pointer to a length
     * is restricted; UCX told us the length together with the pointer.
     */
    @SuppressWarnings("restricted")
    static byte[] bytes(MemorySegment address, long length) {
        return address.reinterpret(length).toArray(JAVA_BYTE);
    }

    /** A view of {@code length} bytes at a native address UCX handed us, with that same justification. */
    @SuppressWarnings("restricted")
    static MemorySegment view(MemorySegment address, long length) {
        return address.reinterpret(length);
    }
}
