package dev.jccl.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static dev.jccl.provider.ucx.UcpLayouts.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Memory registration and remote keys: {@code ucp_mem_map} of memory the JVM already owns (UCX
 * pins or registers it with every transport that needs it, the NIC's MR on InfiniBand) and the
 * packed rkey a peer unpacks on its endpoint. Callers hold the worker lock.
 */
final class UcpMemory {
    private UcpMemory() {}

    /** Registers {@code [address, address+bytes)}; returns the memory handle. */
    static MemorySegment map(UcpWorker w, long address, long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(MEM_MAP_PARAMS_BYTES, 8);
            p.set(JAVA_LONG, 0, MEM_MAP_FIELD_ADDRESS | MEM_MAP_FIELD_LENGTH);
            p.set(ADDRESS, MEM_MAP_ADDRESS, MemorySegment.ofAddress(address));
            p.set(JAVA_LONG, MEM_MAP_LENGTH, bytes);
            MemorySegment out = a.allocate(ADDRESS);
            UcpWorker.check("ucp_mem_map", (int) Ucp.MEM_MAP.invokeExact(w.context(), p, out));
            return out.get(ADDRESS, 0);
        } catch (UcpWorker.UcpException e) {
            throw e;
        } catch (Throwable t) {
            throw Ucp.fault("ucp_mem_map", t);
        }
    }

    /** Memory UCX allocated and registered: its handle, where it is, and how long. */
    record Allocation(MemorySegment memh, long address, long length) {}

    /**
     * Allocates {@code bytes} through UCX (UCP_MEM_MAP_ALLOCATE). On one host UCX takes it from a
     * shared-memory domain (sysv or posix), so a peer's put becomes a plain copy into a mapping, as
     * in jccl's own shm provider, instead of a kernel copy (cma) into private memory.
     */
    static Allocation allocate(UcpWorker w, long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(MEM_MAP_PARAMS_BYTES, 8);
            p.set(JAVA_LONG, 0, MEM_MAP_FIELD_ADDRESS | MEM_MAP_FIELD_LENGTH | MEM_MAP_FIELD_FLAGS);
            p.set(ADDRESS, MEM_MAP_ADDRESS, MemorySegment.NULL);
            p.set(JAVA_LONG, MEM_MAP_LENGTH, bytes);
            p.set(java.lang.foreign.ValueLayout.JAVA_INT, MEM_MAP_FLAGS, MEM_MAP_ALLOCATE);
            MemorySegment out = a.allocate(ADDRESS);
            UcpWorker.check("ucp_mem_map(ALLOCATE)", (int) Ucp.MEM_MAP.invokeExact(w.context(), p, out));
            MemorySegment memh = out.get(ADDRESS, 0);
            MemorySegment attr = a.allocate(MEM_ATTR_BYTES, 8);
            attr.set(JAVA_LONG, 0, MEM_ATTR_FIELD_ADDRESS | MEM_ATTR_FIELD_LENGTH);
            UcpWorker.check("ucp_mem_query", (int) Ucp.MEM_QUERY.invokeExact(memh, attr));
            return new Allocation(memh, attr.get(ADDRESS, MEM_ATTR_ADDRESS).address(), attr.get(JAVA_LONG, MEM_ATTR_LENGTH));
        } catch (UcpWorker.UcpException e) {
            throw e;
        } catch (Throwable t) {
            throw Ucp.fault("ucp_mem_map(ALLOCATE)", t);
        }
    }

    static void unmap(UcpWorker w, MemorySegment memh) {
        try {
            UcpWorker.check("ucp_mem_unmap", (int) Ucp.MEM_UNMAP.invokeExact(w.context(), memh));
        } catch (UcpWorker.UcpException e) {
            throw e;
        } catch (Throwable t) {
            throw Ucp.fault("ucp_mem_unmap", t);
        }
    }

    /** The packed rkey of {@code memh}: what travels to a peer. */
    static byte[] pack(UcpWorker w, MemorySegment memh) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(ADDRESS);
            MemorySegment size = a.allocate(JAVA_LONG);
            UcpWorker.check("ucp_rkey_pack", (int) Ucp.RKEY_PACK.invokeExact(w.context(), memh, buf, size));
            MemorySegment packed = buf.get(ADDRESS, 0);
            byte[] bytes = UcpText.bytes(packed, size.get(JAVA_LONG, 0));
            Ucp.RKEY_BUFFER_RELEASE.invokeExact(packed);
            return bytes;
        } catch (UcpWorker.UcpException e) {
            throw e;
        } catch (Throwable t) {
            throw Ucp.fault("ucp_rkey_pack", t);
        }
    }

    /** Unpacks a peer's rkey on the endpoint that will use it. */
    static MemorySegment unpack(MemorySegment ep, byte[] packed) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            UcpWorker.check("ucp_ep_rkey_unpack", (int) Ucp.EP_RKEY_UNPACK.invokeExact(ep, a.allocateFrom(JAVA_BYTE, packed), out));
            return out.get(ADDRESS, 0);
        } catch (UcpWorker.UcpException e) {
            throw e;
        } catch (Throwable t) {
            throw Ucp.fault("ucp_ep_rkey_unpack", t);
        }
    }

    static void destroyRkey(MemorySegment rkey) {
        try {
            Ucp.RKEY_DESTROY.invokeExact(rkey);
        } catch (Throwable t) {
            throw Ucp.fault("ucp_rkey_destroy", t);
        }
    }
}
