package dev.jccl.testkit;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Memory registration: the registration cache, reference counts, slices, and private memory. */
public abstract class RegistrationChecks extends ConformanceCheck {
    protected RegistrationChecks(ProviderTarget target) {
        super(target);
    }

    @Test
    @Timeout(30)
    void registeringTheSameRangeTwiceReturnsTheSameRegion() {
        try (EndpointPair pair = connected()) {
            ProtectionDomain pd = pair.b().pd();
            MemorySegment seg = pd.allocate(8192);
            MemoryRegion first = pd.register(seg, Endpoint.ALL_ACCESS);
            MemoryRegion second = pd.register(seg, Endpoint.ALL_ACCESS);
            assertEquals(keys(first), keys(second), "second registration of the same range");
            assertEquals(first.address(), second.address());
            assertEquals(first.length(), second.length());
            MemoryRegion fewerRights = pd.register(seg, Set.of(Access.REMOTE_WRITE));
            assertEquals(keys(first), keys(fewerRights), "registration asking for a subset of the rights");
            MemoryRegion otherRange = pd.register(seg.asSlice(0, 4096), Endpoint.ALL_ACCESS);
            assertNotEquals(keys(first), keys(otherRange), "a different range must get its own keys");
        }
    }

    @Test
    @Timeout(30)
    void keysStayValidUntilTheLastDeregistration() {
        try (EndpointPair pair = connected()) {
            ProtectionDomain pd = pair.b().pd();
            MemorySegment seg = pd.allocate(4096);
            Patterns.fill(seg, 1);
            MemoryRegion first = pd.register(seg, Endpoint.ALL_ACCESS);
            MemoryRegion second = pd.register(seg, Endpoint.ALL_ACCESS);
            MemoryRegion src = pair.a().allocateRegion(4096);
            Patterns.fill(src.segment(), 2);

            pd.deregister(second);
            post(pair.a().qp(), SendWr.write(1, src.sge(0, 1024), first.address(), first.rkey()));
            pair.a().sends().nextSuccess(1);
            Patterns.assertPattern("write through a region with one reference left", seg.asSlice(0, 1024), 2, 0);

            pd.deregister(first);
            assertThrows(VerbsException.class, () -> pair.b().qp().postRecv(new RecvWr(5, first.sge(0, 16))),
                    "posting with the lkey of a fully deregistered region");
            assertThrows(VerbsException.class, () -> pd.deregister(first), "deregistering a dead region again");
            post(pair.a().qp(), SendWr.write(2, src.sge(2048, 1024), first.address() + 2048, first.rkey()));
            pair.a().sends().nextWithStatus(2, WcStatus.REM_ACCESS_ERR);
            Patterns.assertPattern("memory behind a deregistered rkey", seg.asSlice(2048), 1, 2048);
        }
    }

    @Test
    @Timeout(30)
    void aSliceOfAllocatedMemoryIsRegisteredAtItsOwnAddress() {
        try (EndpointPair pair = connected()) {
            MemorySegment whole = pair.b().pd().allocate(3 * 4096);
            Patterns.fill(whole, 3);
            MemoryRegion middle = pair.b().register(whole.asSlice(4096, 4096));
            MemoryRegion src = pair.a().allocateRegion(4096);
            Patterns.fill(src.segment(), 4);
            post(pair.a().qp(), SendWr.write(1, src.sge(0, 4096), middle.address(), middle.rkey()));
            pair.a().sends().nextSuccess(1);
            Patterns.assertPattern("bytes before the slice", whole.asSlice(0, 4096), 3, 0);
            Patterns.assertPattern("the slice", whole.asSlice(4096, 4096), 4, 0);
            Patterns.assertPattern("bytes after the slice", whole.asSlice(8192), 3, 8192);
        }
    }

    /**
     * Private memory with remote rights is refused where the target says so (shm); elsewhere either
     * refused, or accepted and then really reachable by the peer in both directions.
     */
    @Test
    @Timeout(30)
    void privateMemoryWithRemoteRightsIsRefusedOrFullyUsable() {
        try (Arena arena = Arena.ofShared(); EndpointPair pair = connected()) {
            MemorySegment priv = arena.allocate(4096, 64);
            Patterns.fill(priv, 5);
            MemoryRegion region;
            try {
                region = pair.b().pd().register(priv, Set.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ));
            } catch (VerbsException refused) {
                privateMemoryStillServesAsLocalSource(pair, priv);
                return;
            }
            if (target.privateMemory() == ProviderTarget.PrivateMemoryRule.REFUSE_REMOTE) {
                throw new AssertionError(target + " accepted remote rights on private memory: " + region);
            }
            MemoryRegion local = pair.a().allocateRegion(8192);
            Patterns.fill(local.segment(), 6);
            post(pair.a().qp(), SendWr.write(1, local.sge(0, 2048), region.address(), region.rkey()));
            pair.a().sends().nextSuccess(1);
            post(pair.a().qp(), SendWr.read(2, local.sge(4096, 2048), region.address() + 2048, region.rkey()));
            pair.a().sends().nextSuccess(2);
            Patterns.assertPattern("private memory written by the peer", priv.asSlice(0, 2048), 6, 0);
            Patterns.assertPattern("private memory read by the peer", local.segment().asSlice(4096, 2048), 5, 2048);
        }
    }

    private static void privateMemoryStillServesAsLocalSource(EndpointPair pair, MemorySegment priv) {
        MemoryRegion source = pair.b().pd().register(priv, Set.of(Access.LOCAL_WRITE));
        MemoryRegion dst = pair.a().allocateRegion(4096);
        post(pair.b().qp(), SendWr.write(1, source.sge(0, 4096), dst.address(), dst.rkey()));
        pair.b().sends().nextSuccess(1);
        Patterns.assertPattern("write sourced from private memory", dst.segment(), 5, 0);
    }

    private static String keys(MemoryRegion r) {
        return String.format("lkey=0x%08x rkey=0x%08x", r.lkey(), r.rkey());
    }
}
