package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;

import java.lang.foreign.MemorySegment;

/**
 * The checks every call passes before anything is issued (immutable: one per kind of call), each failing with
 * {@link IllegalArgumentException} that names the call and the values.
 */
final class CallChecks {
    private final String call;

    CallChecks(String call) {
        this.call = call;
    }

    long bytes(long count, DataType type) {
        if (type == null) throw bad("data type is null");
        if (count < 0) throw bad("negative count " + count);
        try {
            return type.bytes(count);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    long times(long bytes, int n) {
        try {
            return Math.multiplyExact(bytes, (long) n);
        } catch (ArithmeticException e) {
            throw bad(bytes + " bytes x " + n + " ranks overflows");
        }
    }

    void op(ReduceOp op) {
        if (op == null) throw bad("reduce op is null");
    }

    void rank(int r, int size, String what) {
        if (r < 0 || r >= size) throw bad(what + " " + r + " is not a rank of this communicator (size " + size + ")");
    }

    void peer(int peer, int rank, int size) {
        rank(peer, size, "peer");
        if (peer == rank) throw bad("peer " + peer + " is this rank; a rank cannot send to itself");
    }

    /** A native segment of at least {@code bytes} the progress thread may use; {@code write} if results land in it. */
    void buffer(MemorySegment seg, String name, long bytes, boolean write, Thread progress) {
        if (seg == null) throw bad(name + " buffer is null");
        if (!seg.isNative()) {
            throw bad(name + " buffer is a heap segment (" + seg.byteSize() + " bytes); collectives need native memory"
                    + " (Arena.ofShared, Arena.ofAuto, Arena.global), or use the array overloads, which stage");
        }
        if (!seg.isAccessibleBy(progress)) {
            throw bad(name + " buffer is confined to another thread; collectives run on the communicator's progress thread,"
                    + " so allocate from a shared, automatic or global arena");
        }
        if (write && seg.isReadOnly()) throw bad(name + " buffer is read-only");
        if (seg.byteSize() < bytes) {
            throw bad(name + " buffer has " + seg.byteSize() + " bytes but the call needs " + bytes);
        }
    }

    /** Out-of-place buffers must not overlap at all. */
    void disjoint(MemorySegment a, long aBytes, MemorySegment b, long bBytes) {
        long x = a.address();
        long y = b.address();
        if (aBytes > 0 && bBytes > 0 && x < y + bBytes && y < x + aBytes) {
            throw bad(String.format("input [0x%x, +%d) and output [0x%x, +%d) overlap without being the in-place layout",
                    x, aBytes, y, bBytes));
        }
    }

    IllegalArgumentException bad(String what) {
        return new IllegalArgumentException(call + ": " + what);
    }
}
