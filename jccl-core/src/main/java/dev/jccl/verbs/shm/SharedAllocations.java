package dev.jccl.verbs.shm;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shared mappings a context handed out through {@code ProtectionDomain.allocate}, by address:
 * which backing file, and where in it, a piece of memory lives. Memory found here may be exposed to
 * peers; anything else is private to this process. Thread-safe.
 */
final class SharedAllocations {
    /** One mapped file: peers map {@code path} and find byte {@code address} at {@code address - base}. */
    record Allocation(int allocId, long base, long bytes, Path path) {
        boolean contains(long address, long length) {
            return address >= base && length >= 0 && address - base <= bytes - length;
        }
    }

    private final TreeMap<Long, Allocation> byBase = new TreeMap<>();

    synchronized void add(Allocation a) {
        byBase.put(a.base(), a);
    }

    synchronized void remove(Allocation a) {
        byBase.remove(a.base(), a);
    }

    /** The allocation holding all of {@code [address, address+length)}, or null when it is private memory. */
    synchronized Allocation containing(long address, long length) {
        Map.Entry<Long, Allocation> e = byBase.floorEntry(address);
        return e != null && e.getValue().contains(address, length) ? e.getValue() : null;
    }
}
