package dev.jccl.verbs.base;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.VerbsException;

import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The memory regions of one protection domain, with key lookups and bounds checks, and the
 * registration cache.
 *
 * <p>Keys are random 32-bit values, so a peer cannot guess a valid rkey by counting. Lookups happen
 * on receiver threads while the owner registers, hence lock-free tables by key ({@link RegionsByKey});
 * registration itself is synchronized so the cache and reference counts stay consistent.
 */
public final class RegionTable {
    private record Range(long address, long length) {}

    private final SecureRandom random = new SecureRandom();
    private final RegionsByKey byLkey = new RegionsByKey(false); // changed under this object's monitor
    private final RegionsByKey byRkey = new RegionsByKey(true);
    private final Map<Range, LocalRegion> cache = new HashMap<>(); // guarded by this
    private int registrations; // guarded by this; how many registrations were real (not cache hits)

    /**
     * Registers {@code segment}, or returns the cached region for the same range when it already has
     * every requested right.
     *
     * @param exposable whether peers may reach this memory at all; if not, remote rights are refused
     */
    public synchronized LocalRegion register(MemorySegment segment, Set<Access> access, boolean exposable) {
        if (!exposable && (access.contains(Access.REMOTE_WRITE) || access.contains(Access.REMOTE_READ))) {
            throw new VerbsException("memory at 0x" + Long.toHexString(segment.address()) + " (" + segment.byteSize()
                    + " bytes) is private to this process and cannot be registered for remote access " + access
                    + "; allocate it with ProtectionDomain.allocate()");
        }
        Range range = new Range(segment.address(), segment.byteSize());
        LocalRegion hit = cache.get(range);
        if (hit != null && hit.valid() && hit.access().containsAll(access)) {
            hit.retain();
            return hit;
        }
        int lkey = freshKey(byLkey);
        int rkey = freshKey(byRkey);
        LocalRegion r = new LocalRegion(lkey, rkey, segment, access);
        byLkey.put(r);
        byRkey.put(r);
        cache.put(range, r);
        registrations++;
        return r;
    }

    /** Drops one reference; returns true when the region became invalid. */
    public synchronized boolean deregister(LocalRegion r) {
        if (!r.valid()) throw new VerbsException("region already deregistered: " + r);
        if (r.release() > 0) return false;
        r.invalidate();
        byLkey.remove(r);
        byRkey.remove(r);
        cache.remove(new Range(r.address(), r.length()), r);
        return true;
    }

    /** Real registrations performed (cache hits excluded); lets tests see that the cache works. */
    public synchronized int registrations() {
        return registrations;
    }

    public LocalRegion byLkey(int lkey) {
        return byLkey.get(lkey);
    }

    public LocalRegion byRkey(int rkey) {
        return byRkey.get(rkey);
    }

    /**
     * Resolves a local sge to the memory it names. Throws {@link VerbsException} (a contract breach,
     * refused at post time) for an unknown lkey, a range outside the region, or a missing
     * LOCAL_WRITE when the memory will be written.
     */
    public MemorySegment resolveLocal(Sge sge, boolean willWrite) {
        LocalRegion r = checkLocal(sge.address(), sge.length(), sge.lkey(), willWrite);
        return r == null ? MemorySegment.NULL : r.segment().asSlice(sge.address() - r.address(), sge.length());
    }

    /**
     * The checks of {@link #resolveLocal} on local memory given field by field, returning the region
     * it lies in (the memory is at {@code address - region.address()} in its segment), or null for a
     * zero-length range, which names no memory. Makes no view, for the data path.
     */
    public LocalRegion checkLocal(long address, long length, int lkey, boolean willWrite) {
        if (length == 0) return null;
        LocalRegion r = byLkey.get(lkey);
        if (r == null || !r.valid()) {
            throw new VerbsException(String.format("lkey 0x%08x is not registered (sge addr=0x%x len=%d)",
                    lkey, address, length));
        }
        long off = address - r.address();
        if (off < 0 || length > r.length() - off || off > r.length()) {
            throw new VerbsException(String.format("sge [0x%x, +%d) is outside its region [0x%x, +%d) (lkey 0x%08x)",
                    address, length, r.address(), r.length(), lkey));
        }
        if (willWrite && !r.access().contains(Access.LOCAL_WRITE)) {
            throw new VerbsException(String.format("lkey 0x%08x lacks LOCAL_WRITE needed to receive data", lkey));
        }
        return r;
    }

    /**
     * Resolves a peer's request for {@code [address, address+length)} under {@code rkey} with the
     * given right, or throws {@link RemoteAccessException} saying why not.
     */
    public MemorySegment resolveRemote(long address, long length, int rkey, Access needed) throws RemoteAccessException {
        LocalRegion r = checkRemote(address, length, rkey, needed);
        return r.segment().asSlice(address - r.address(), length);
    }

    /**
     * The checks of {@link #resolveRemote}, returning the region the range lies in (at
     * {@code address - region.address()} in its segment) instead of a view of it, for the data path.
     */
    public LocalRegion checkRemote(long address, long length, int rkey, Access needed) throws RemoteAccessException {
        if (length < 0) throw new RemoteAccessException("negative length " + length);
        LocalRegion r = byRkey.get(rkey);
        if (r == null || !r.valid()) {
            throw new RemoteAccessException(String.format("rkey 0x%08x is not registered at the peer", rkey));
        }
        if (!r.access().contains(needed)) {
            throw new RemoteAccessException(String.format("rkey 0x%08x does not grant %s", rkey, needed));
        }
        long off = address - r.address();
        if (off < 0 || off > r.length() || length > r.length() - off) {
            throw new RemoteAccessException(String.format("[0x%x, +%d) is outside the region [0x%x, +%d) of rkey 0x%08x",
                    address, length, r.address(), r.length(), rkey));
        }
        return r;
    }

    private int freshKey(RegionsByKey taken) {
        while (true) {
            int k = random.nextInt();
            if (k != 0 && taken.get(k) == null) return k;
        }
    }
}
