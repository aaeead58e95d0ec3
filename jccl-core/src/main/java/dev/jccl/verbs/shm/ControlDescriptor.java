package dev.jccl.verbs.shm;

import dev.jccl.verbs.VerbsException;

/**
 * Layout of a context's control file, {@code jccl-<pid>-<n>.ctl}: a header saying who owns it and
 * whether it is alive, then the table of regions that peers may access.
 *
 * <pre>
 *   0  magic (int)             release-stored last, when the header is complete
 *   4  version (int)
 *   8  pid (long)              owner process
 *  16  lid (long)              context id, as in ConnectInfo.lid
 *  24  heartbeat period (long, ns)
 *  32  pid namespace (long)    inode of /proc/self/ns/pid; pids mean the same thing only when equal
 *  40  region capacity (int)   a power of two
 *  48  control address (long)  where the owner mapped this file: a peer that reads the header back
 *                              from there with process_vm_readv may read the owner's private memory
 *  64  heartbeat (long)        own cache line: the owner's watchdog release-stores it every period
 * 128  closed (int)            volatile-stored 1 when the owner closes the context
 * 192  region entries, REGION_ENTRY_BYTES each (one cache line)
 * </pre>
 *
 * <p>A region entry ({@code ENTRY_*} offsets inside it) is an open-addressing hash slot keyed by
 * rkey, guarded by a sequence lock: the owner makes {@code seq} odd, writes the fields, then
 * release-stores it even. Peers pin an entry in {@code accessors} while copying; see
 * {@link PublishedRegions} and {@link RemoteRegions} for the pairing.
 */
final class ControlDescriptor {
    private ControlDescriptor() {}

    static final int MAGIC = 0x4A43_5331; // "JCS1"
    static final int VERSION = 1;

    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 4;
    static final long PID_OFFSET = 8;
    static final long LID_OFFSET = 16;
    static final long HEARTBEAT_PERIOD_OFFSET = 24;
    static final long PID_NAMESPACE_OFFSET = 32;
    static final long REGION_CAPACITY_OFFSET = 40;
    static final long CONTROL_ADDRESS_OFFSET = 48;
    /** The header bytes that never change once the magic is stored: what a cross-memory probe compares. */
    static final long FIXED_HEADER_BYTES = 48;
    static final long HEARTBEAT_OFFSET = 64;
    static final long CLOSED_OFFSET = 128;
    static final long REGIONS_OFFSET = 192;
    static final long HEADER_BYTES = REGIONS_OFFSET;

    /** Remotely accessible regions one context can publish at once. */
    static final int REGION_CAPACITY = 1024;
    static final int MAX_REGION_CAPACITY = 1 << 16;
    static final long REGION_ENTRY_BYTES = 64;

    static final long ENTRY_SEQ = 0;          // int: odd while the owner rewrites the entry
    static final long ENTRY_ACCESSORS = 4;    // int: peers copying under this entry right now
    static final long ENTRY_STATE = 8;        // int: EMPTY, LIVE or DEAD
    static final long ENTRY_RKEY = 12;        // int
    static final long ENTRY_RIGHTS = 16;      // int: RIGHT_* bits
    static final long ENTRY_PD_ID = 20;       // int: only queue pairs of this domain may use it
    static final long ENTRY_ALLOC_ID = 24;    // int: backing file jccl-<pid>-<n>-mem<allocId>
    static final long ENTRY_BASE = 32;        // long: region address as the owner sees it
    static final long ENTRY_LENGTH = 40;      // long
    static final long ENTRY_FILE_OFFSET = 48; // long: where the region starts in its backing file

    static final int EMPTY = 0;
    static final int LIVE = 1;
    /** A withdrawn entry; lookups probe past it, registration may reuse it. */
    static final int DEAD = 2;

    static final int RIGHT_REMOTE_WRITE = 1;
    static final int RIGHT_REMOTE_READ = 2;

    static long fileBytes(int regionCapacity) {
        return REGIONS_OFFSET + regionCapacity * REGION_ENTRY_BYTES;
    }

    static long entryOffset(int slot) {
        return REGIONS_OFFSET + slot * REGION_ENTRY_BYTES;
    }

    /** First slot probed for {@code rkey}; keys are random, the mix just spreads adjacent values. */
    static int homeSlot(int rkey, int capacity) {
        int h = rkey * 0x9E37_79B9;
        return (h ^ (h >>> 16)) & (capacity - 1);
    }

    /** Checks a capacity read from a peer's file against that file's size, naming both. */
    static void checkCapacity(int capacity, long fileBytes, String file) {
        if (capacity < 1 || capacity > MAX_REGION_CAPACITY || Integer.bitCount(capacity) != 1
                || fileBytes(capacity) > fileBytes) {
            throw new VerbsException("control file " + file + " is malformed: region capacity " + capacity
                    + " needs " + (capacity > 0 && capacity <= MAX_REGION_CAPACITY ? fileBytes(capacity) : -1)
                    + " bytes, file has " + fileBytes);
        }
    }
}
