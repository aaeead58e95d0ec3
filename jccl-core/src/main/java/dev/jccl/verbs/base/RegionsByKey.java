package dev.jccl.verbs.base;

/**
 * The regions of one protection domain by one of their 32-bit keys (lkey or rkey), found without
 * a lock and without boxing the key: every work request and every incoming frame looks one up, so
 * a map keyed by {@code Integer} would allocate on the data path for all but tiny keys.
 *
 * <p>Copy on write: a change (registration, rare and serialized by the owning {@link RegionTable})
 * builds a new open-addressed array and publishes it with a volatile store; a reader probes the
 * array it loaded, which is never modified after publication.
 */
final class RegionsByKey {
    private final boolean byRkey;
    private volatile LocalRegion[] table = new LocalRegion[16]; // a power of two, at most half full
    private int size; // guarded by the owning RegionTable

    RegionsByKey(boolean byRkey) {
        this.byRkey = byRkey;
    }

    LocalRegion get(int key) {
        LocalRegion[] t = table;
        int mask = t.length - 1;
        for (int i = spread(key) & mask; ; i = (i + 1) & mask) {
            LocalRegion r = t[i];
            if (r == null || keyOf(r) == key) return r;
        }
    }

    void put(LocalRegion region) {
        LocalRegion[] old = table;
        LocalRegion[] t = new LocalRegion[2 * (size + 1) > old.length ? old.length * 2 : old.length];
        for (LocalRegion r : old) if (r != null) insert(t, r);
        insert(t, region);
        size++;
        table = t;
    }

    void remove(LocalRegion region) {
        LocalRegion[] old = table;
        LocalRegion[] t = new LocalRegion[old.length];
        for (LocalRegion r : old) if (r != null && r != region) insert(t, r);
        size--;
        table = t;
    }

    private void insert(LocalRegion[] t, LocalRegion r) {
        int mask = t.length - 1;
        int i = spread(keyOf(r)) & mask;
        while (t[i] != null) i = (i + 1) & mask;
        t[i] = r;
    }

    private int keyOf(LocalRegion r) {
        return byRkey ? r.rkey() : r.lkey();
    }

    private static int spread(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
