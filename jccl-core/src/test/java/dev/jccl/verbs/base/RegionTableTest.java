package dev.jccl.verbs.base;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.VerbsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("unit")
class RegionTableTest {
    private final Arena arena = Arena.ofShared();
    private final RegionTable table = new RegionTable();
    private final MemorySegment seg = arena.allocate(4096, 64);

    @AfterEach
    void close() {
        arena.close();
    }

    @Test
    void theCacheReturnsTheSameRegionForTheSameRangeAndRights() {
        LocalRegion a = table.register(seg, EnumSet.allOf(Access.class), true);
        LocalRegion b = table.register(seg, Set.of(Access.REMOTE_WRITE), true);
        assertSame(a, b);
        assertEquals(1, table.registrations());
        assertTrue(!table.deregister(b) && a.valid(), "one reference left");
        assertTrue(table.deregister(a));
        assertThrows(VerbsException.class, () -> table.resolveLocal(a.sge(0, 8), false));
    }

    @Test
    void moreRightsThanCachedMeansANewRegistration() {
        LocalRegion a = table.register(seg, Set.of(Access.LOCAL_WRITE), true);
        LocalRegion b = table.register(seg, EnumSet.allOf(Access.class), true);
        assertNotSame(a, b);
        assertEquals(2, table.registrations());
    }

    @Test
    void privateMemoryCannotBeExposed() {
        VerbsException e = assertThrows(VerbsException.class,
                () -> table.register(seg, Set.of(Access.REMOTE_READ), false));
        assertTrue(e.getMessage().contains("private"), e.getMessage());
        table.register(seg, Set.of(Access.LOCAL_WRITE), false);
    }

    @Test
    void localSgesAreCheckedAgainstTheirRegion() {
        LocalRegion r = table.register(seg, Set.of(Access.LOCAL_WRITE), true);
        assertEquals(100, table.resolveLocal(r.sge(10, 100), true).byteSize());
        assertThrows(VerbsException.class, () -> table.resolveLocal(new Sge(r.address() + 4000, 97, r.lkey()), false));
        assertThrows(VerbsException.class, () -> table.resolveLocal(new Sge(r.address() - 1, 1, r.lkey()), false));
        assertThrows(VerbsException.class, () -> table.resolveLocal(new Sge(r.address(), 1, r.lkey() + 1), false));
        LocalRegion ro = table.register(arena.allocate(64), Set.of(), true);
        assertThrows(VerbsException.class, () -> table.resolveLocal(ro.sge(0, 8), true));
    }

    @Test
    void remoteRequestsAreCheckedForKeyBoundsAndRights() throws Exception {
        LocalRegion r = table.register(seg, Set.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE), true);
        assertEquals(4096, table.resolveRemote(r.address(), 4096, r.rkey(), Access.REMOTE_WRITE).byteSize());
        assertThrows(RemoteAccessException.class, () -> table.resolveRemote(r.address() + 1, 4096, r.rkey(), Access.REMOTE_WRITE));
        assertThrows(RemoteAccessException.class, () -> table.resolveRemote(r.address(), Long.MAX_VALUE, r.rkey(), Access.REMOTE_WRITE));
        assertThrows(RemoteAccessException.class, () -> table.resolveRemote(r.address(), -1, r.rkey(), Access.REMOTE_WRITE));
        assertThrows(RemoteAccessException.class, () -> table.resolveRemote(r.address(), 8, r.rkey() ^ 1, Access.REMOTE_WRITE));
        assertThrows(RemoteAccessException.class, () -> table.resolveRemote(r.address(), 8, r.rkey(), Access.REMOTE_READ));
    }
}
