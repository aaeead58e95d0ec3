package dev.jccl.provider.ucx;

import dev.jccl.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

import static dev.jccl.provider.ucx.UcpLayouts.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One ucp context with one worker: what a jccl device context drives. The worker runs in
 * UCS_THREAD_MODE_SERIALIZED and {@link #lock} is what serialises it: every call below expects the
 * caller to hold it, and callbacks run inside {@link #progress} on the thread holding it, so a
 * callback may post (it already holds the lock) but must never call progress again.
 */
final class UcpWorker {
    static final int AM_ID = 0;
    /** {@link #acquire}: tries while spinning (microseconds), then while yielding, before queuing on the lock. */
    private static final int ACQUIRE_SPINS = 256;
    private static final int ACQUIRE_YIELDS = 64;

    final ReentrantLock lock = new ReentrantLock();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment context;
    private final MemorySegment worker;
    private final MemorySegment param; // one request-param block, reused under the lock
    private final MemorySegment out;   // out-parameters, reused under the lock
    private final byte[] address;
    private final UcpWakeup wakeup;
    private boolean destroyed;

    UcpWorker(long amToken) {
        out = arena.allocate(16, 8);
        param = arena.allocate(REQUEST_PARAM_BYTES, 8);
        try {
            check("ucp_config_read", (int) Ucp.CONFIG_READ.invokeExact(MemorySegment.NULL, MemorySegment.NULL, out));
            MemorySegment config = out.get(ADDRESS, 0);
            MemorySegment params = arena.allocate(PARAMS_BYTES, 8);
            params.set(JAVA_LONG, PARAMS_FIELD_MASK, PARAM_FIELD_FEATURES);
            params.set(JAVA_LONG, PARAMS_FEATURES, FEATURE_RMA | FEATURE_AM | FEATURE_WAKEUP);
            int st = (int) Ucp.INIT_VERSION.invokeExact(UcpLibrary.MIN_MAJOR, UcpLibrary.MIN_MINOR, params, config, out);
            Ucp.CONFIG_RELEASE.invokeExact(config);
            check("ucp_init", st);
            context = out.get(ADDRESS, 0);
            MemorySegment wp = arena.allocate(WORKER_PARAMS_BYTES, 8);
            wp.set(JAVA_LONG, 0, WORKER_PARAM_FIELD_THREAD_MODE);
            wp.set(JAVA_INT, WORKER_PARAMS_THREAD_MODE, THREAD_MODE_SERIALIZED);
            check("ucp_worker_create", (int) Ucp.WORKER_CREATE.invokeExact(context, wp, out));
            worker = out.get(ADDRESS, 0);
            address = workerAddress();
            wakeup = new UcpWakeup(worker, arena);
            MemorySegment hp = arena.allocate(AM_HANDLER_PARAM_BYTES, 8);
            hp.set(JAVA_LONG, 0, AM_HANDLER_FIELDS);
            hp.set(JAVA_INT, AM_HANDLER_ID, AM_ID);
            hp.set(JAVA_INT, AM_HANDLER_FLAGS, AM_HANDLER_FLAGS_VALUE);
            hp.set(ADDRESS, AM_HANDLER_CB, UcpCallbacks.AM_CB);
            hp.set(ADDRESS, AM_HANDLER_ARG, MemorySegment.ofAddress(amToken));
            check("ucp_worker_set_am_recv_handler", (int) Ucp.SET_AM_HANDLER.invokeExact(worker, hp));
        } catch (Throwable t) {
            throw Ucp.fault("opening a UCX worker", t);
        }
    }

    /** This worker's packed address, what a peer's ucp_ep_create needs. */
    byte[] address() {
        return address.clone();
    }

    /** The worker's event fd: arm, sleep, signal. */
    UcpWakeup wakeup() {
        return wakeup;
    }

    /** Runs callbacks for whatever has arrived; returns how many events it handled. Hold the lock. */
    int progress() {
        try {
            return (int) Ucp.WORKER_PROGRESS.invokeExact(worker);
        } catch (Throwable t) {
            throw Ucp.fault("ucp_worker_progress", t);
        }
    }

    /**
     * Takes {@link #lock} without allocating: a {@code lock()} that finds it held queues the caller on
     * a new AQS node (32 B). On tcp every message wakes the progress agent on the event fd, and it
     * holds the lock for a progress pass (microseconds) just as the poster posts again: most turns
     * of a ping-pong. So: tryLock while spinning, then while yielding to the holder, then queue.
     */
    void acquire() {
        if (lock.tryLock()) return;
        for (int i = 0; i < ACQUIRE_SPINS; i++) {
            Thread.onSpinWait();
            if (lock.tryLock()) return;
        }
        for (int i = 0; i < ACQUIRE_YIELDS; i++) {
            Thread.yield();
            if (lock.tryLock()) return;
        }
        lock.lock();
    }

    /** Progress by a thread that may find the lock taken; then whoever holds it progresses instead. */
    int tryProgress() {
        if (!lock.tryLock()) return 0;
        try {
            if (destroyed) return 0;
            int total = 0;
            for (int i = 0, n; i < 16 && (n = progress()) > 0; i++) total += n;
            return total;
        } finally {
            lock.unlock();
        }
    }

    /** Connects to {@code peer}; PEER error mode makes UCX report a lost peer through {@code errToken}. */
    MemorySegment connect(byte[] peer, boolean peerErrorMode, long errToken) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ep = a.allocate(EP_PARAMS_BYTES, 8);
            long fields = EP_PARAM_FIELD_REMOTE_ADDRESS | EP_PARAM_FIELD_ERR_HANDLING_MODE;
            ep.set(ADDRESS, EP_PARAMS_ADDRESS, a.allocateFrom(java.lang.foreign.ValueLayout.JAVA_BYTE, peer));
            ep.set(JAVA_INT, EP_PARAMS_ERR_MODE, peerErrorMode ? ERR_HANDLING_MODE_PEER : ERR_HANDLING_MODE_NONE);
            if (peerErrorMode) {
                fields |= EP_PARAM_FIELD_ERR_HANDLER;
                ep.set(ADDRESS, EP_PARAMS_ERR_HANDLER_CB, UcpCallbacks.ERR_CB);
                ep.set(ADDRESS, EP_PARAMS_ERR_HANDLER_ARG, MemorySegment.ofAddress(errToken));
            }
            ep.set(JAVA_LONG, 0, fields);
            int st = (int) Ucp.EP_CREATE.invokeExact(worker, ep, out);
            if (st != UCS_OK) throw new UcpException("ucp_ep_create", st);
            return out.get(ADDRESS, 0);
        } catch (UcpException e) {
            throw e;
        } catch (Throwable t) {
            throw Ucp.fault("ucp_ep_create", t);
        }
    }

    /**
     * Writes {@code bytes} at {@code local} to {@code remote} under {@code rkey}. {@code memh} is the
     * local region's handle from ucp_mem_map (or null): with it the transport moves the data straight
     * from registered memory (the NIC's DMA on InfiniBand) without a registration-cache lookup.
     */
    void put(MemorySegment ep, long local, long bytes, long remote, MemorySegment rkey, MemorySegment memh,
             UcpCallbacks.Completion done) {
        long token = prepare(done, 0);
        withMemh(memh);
        try {
            submit((long) Ucp.PUT_NBX.invokeExact(ep, local, bytes, remote, rkey, param), token, done);
        } catch (Throwable t) {
            throw Ucp.fault("ucp_put_nbx", t);
        }
    }

    void get(MemorySegment ep, long local, long bytes, long remote, MemorySegment rkey, MemorySegment memh,
             UcpCallbacks.Completion done) {
        long token = prepare(done, 0);
        withMemh(memh);
        try {
            submit((long) Ucp.GET_NBX.invokeExact(ep, local, bytes, remote, rkey, param), token, done);
        } catch (Throwable t) {
            throw Ucp.fault("ucp_get_nbx", t);
        }
    }

    /** Completes when every put and get issued on {@code ep} before it is complete at the target. */
    void flush(MemorySegment ep, UcpCallbacks.Completion done) {
        long token = prepare(done, 0);
        try {
            submit((long) Ucp.EP_FLUSH_NBX.invokeExact(ep, param), token, done);
        } catch (Throwable t) {
            throw Ucp.fault("ucp_ep_flush_nbx", t);
        }
    }

    /** Sends an active message; the header must stay valid until {@code done} runs. */
    void amSend(MemorySegment ep, MemorySegment header, long data, long bytes, UcpCallbacks.Completion done) {
        long token = prepare(done, AM_SEND_FLAG_REPLY);
        try {
            submit((long) Ucp.AM_SEND_NBX.invokeExact(ep, AM_ID, header, header.byteSize(), data, bytes, param), token, done);
        } catch (Throwable t) {
            throw Ucp.fault("ucp_am_send_nbx", t);
        }
    }

    /** Receives a rendezvous message's data straight into {@code buffer}. */
    void amRecvData(long desc, long buffer, long bytes, UcpCallbacks.Completion done) {
        long token = prepare(done, 0);
        param.set(ADDRESS, REQUEST_CB, UcpCallbacks.RECV_DATA_CB);
        try {
            submit(((MemorySegment) Ucp.AM_RECV_DATA_NBX.invokeExact(worker, MemorySegment.ofAddress(desc), MemorySegment.ofAddress(buffer), bytes,
                    param)).address(), token, done);
        } catch (Throwable t) {
            throw Ucp.fault("ucp_am_recv_data_nbx", t);
        }
    }

    /** Gives back eager data kept past its callback (UCS_INPROGRESS). */
    void amDataRelease(long data) {
        try {
            Ucp.AM_DATA_RELEASE.invokeExact(worker, data);
        } catch (Throwable t) {
            throw Ucp.fault("ucp_am_data_release", t);
        }
    }

    /** Closes {@code ep}: flushing first, or at once when {@code force}; {@code done} runs when closed. */
    void close(MemorySegment ep, boolean force, UcpCallbacks.Completion done) {
        long token = prepare(done, force ? EP_CLOSE_FLAG_FORCE : 0);
        try {
            submit(((MemorySegment) Ucp.EP_CLOSE_NBX.invokeExact(ep, param)).address(), token, done);
        } catch (Throwable t) {
            throw Ucp.fault("ucp_ep_close_nbx", t);
        }
    }

    MemorySegment context() {
        return context;
    }

    /** The transports UCX opened, as ucp_context_print_info lists them. */
    String contextInfo() {
        return UcpText.print(Ucp.CONTEXT_PRINT_INFO, context);
    }

    /** The lanes an endpoint really uses, as ucp_ep_print_info lists them. */
    String endpointInfo(MemorySegment ep) {
        return UcpText.print(Ucp.EP_PRINT_INFO, ep);
    }

    boolean destroyed() {
        return destroyed;
    }

    /** Destroys the worker and the context. Hold the lock; endpoints must be closed first. */
    void destroy() {
        if (destroyed) return;
        destroyed = true;
        try {
            Ucp.WORKER_DESTROY.invokeExact(worker);
            Ucp.CLEANUP.invokeExact(context);
        } catch (Throwable t) {
            throw Ucp.fault("destroying a UCX worker", t);
        }
        arena.close();
    }

    private long prepare(UcpCallbacks.Completion done, int flags) {
        long token = done instanceof UcpCallbacks.Reusable r ? r.token() : UcpCallbacks.register(done);
        param.set(JAVA_INT, REQUEST_OP_ATTR_MASK, OP_ATTR_FIELD_CALLBACK | OP_ATTR_FIELD_USER_DATA | OP_ATTR_FIELD_FLAGS);
        param.set(JAVA_INT, REQUEST_FLAGS, flags);
        param.set(ADDRESS, REQUEST_CB, UcpCallbacks.SEND_CB);
        param.set(JAVA_LONG, REQUEST_USER_DATA, token); // a pointer-sized field: no segment made for it
        return token;
    }

    private void withMemh(MemorySegment memh) {
        if (memh == null) return;
        param.set(JAVA_INT, REQUEST_OP_ATTR_MASK, param.get(JAVA_INT, REQUEST_OP_ATTR_MASK) | OP_ATTR_FIELD_MEMH);
        param.set(ADDRESS, REQUEST_MEMH, memh);
    }

    /** NULL: done already; an error code: failed at once; otherwise the callback will come. */
    private static void submit(long result, long token, UcpCallbacks.Completion done) {
        if (result == 0) {
            UcpCallbacks.forgetOneShot(token, done);
            done.done(UCS_OK, 0);
        } else if (Ucp.isError(result)) {
            UcpCallbacks.forgetOneShot(token, done);
            done.done((int) result, 0);
        }
    }

    private byte[] workerAddress() throws Throwable {
        check("ucp_worker_get_address", (int) Ucp.WORKER_GET_ADDRESS.invokeExact(worker, out, out.asSlice(8)));
        MemorySegment addr = out.get(ADDRESS, 0);
        long len = out.get(JAVA_LONG, 8);
        byte[] bytes = UcpText.bytes(addr, len);
        Ucp.WORKER_RELEASE_ADDRESS.invokeExact(worker, addr);
        return bytes;
    }

    static void check(String call, int status) {
        if (status != UCS_OK) throw new UcpException(call, status);
    }

    /** A UCX call returned an error status. */
    static final class UcpException extends VerbsException {
        final int status;

        UcpException(String call, int status) {
            super(call + " failed: " + Ucp.statusText(status));
            this.status = status;
        }
    }
}
