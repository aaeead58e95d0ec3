package dev.jccl.provider.ucx;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The four C callbacks libucp calls (send/flush/put/get done, AM data received, AM arrived, endpoint
 * failed), as upcall stubs made once per JVM. UCX hands back an opaque {@code user_data}/{@code arg};
 * here it is a token naming a Java object in {@link #TARGETS}, so no Java reference ever crosses into
 * C. Upcalls run on whichever thread called {@code ucp_worker_progress}, under the worker lock.
 * Nothing may be thrown out of an upcall (the JVM would exit), so each one catches and logs.
 *
 * <p>The hot path allocates nothing: tokens index an array (no boxed keys, no map nodes), a
 * {@link Reusable} completion keeps its token for life, and the request callbacks take their
 * pointers as {@code long}, so the upcall makes no {@link MemorySegment} for them.
 */
final class UcpCallbacks {
    /** A request finished: status, and for received AM data its length. */
    interface Completion {
        void done(int status, long length);
    }

    /** An active message arrived; returns a ucs_status_t (UCS_OK, or UCS_INPROGRESS to keep data). */
    interface AmReceiver {
        int arrived(long header, long headerLength, long data, long length, long recvAttr, long replyEp);
    }

    /** A completion that is used again and again: registered once, its token is never dropped by a callback. */
    interface Reusable extends Completion {
        long token();
    }

    /** An endpoint failed (error handling mode PEER). */
    interface EpFailure {
        void failed(int status);
    }

    private static final TokenTable TARGETS = new TokenTable();

    static final MemorySegment SEND_CB;
    static final MemorySegment RECV_DATA_CB;
    static final MemorySegment AM_CB;
    static final MemorySegment ERR_CB;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            // void *request and void *user_data as 64-bit integers: the same registers, and no segment per call.
            SEND_CB = stub(l, "onSend", MethodType.methodType(void.class, long.class, int.class, long.class),
                    FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT, JAVA_LONG));
            RECV_DATA_CB = stub(l, "onRecvData", MethodType.methodType(void.class, long.class, int.class,
                    long.class, long.class), FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
            AM_CB = stub(l, "onAm", MethodType.methodType(int.class, long.class, long.class, long.class, long.class, long.class,
                    long.class), FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
            ERR_CB = stub(l, "onEpError", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, int.class),
                    FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private UcpCallbacks() {}

    /** Registers a target and returns the token to hand to UCX; {@link #forget} drops it. */
    static long register(Object target) {
        return TARGETS.add(target);
    }

    static void forget(long token) {
        TARGETS.remove(token);
    }

    /** Drops {@code token} unless it belongs to a {@link Reusable} (whose token lives as long as it does). */
    static void forgetOneShot(long token, Completion done) {
        if (!(done instanceof Reusable)) TARGETS.remove(token);
    }

    // Upcall stubs are restricted: they hand C a pointer into the JVM. These are made once, in the
    // global arena, with the exact C signatures of ucp_def.h's callback types.
    @SuppressWarnings("restricted")
    private static MemorySegment stub(MethodHandles.Lookup l, String name, MethodType type, FunctionDescriptor fd)
            throws ReflectiveOperationException {
        return UcpLibrary.linker().upcallStub(l.findStatic(UcpCallbacks.class, name, type), fd, Arena.global());
    }

    private static void onSend(long request, int status, long userData) {
        complete(request, status, 0, userData);
    }

    private static void onRecvData(long request, int status, long length, long userData) {
        complete(request, status, length, userData);
    }

    private static void complete(long request, int status, long length, long userData) {
        try {
            Object target = TARGETS.get(userData);
            Ucp.REQUEST_FREE.invokeExact(request);
            if (!(target instanceof Completion c)) return;
            forgetOneShot(userData, c);
            c.done(status, length);
        } catch (Throwable t) {
            Log.warn(Subsys.NET, "NET/UCX completion callback failed: %s", t);
        }
    }

    private static int onAm(long arg, long header, long headerLength, long data, long length, long param) {
        try {
            if (!(TARGETS.get(arg) instanceof AmReceiver r)) return UcpLayouts.UCS_OK;
            long attr = UcpText.ALL.get(JAVA_LONG, param + UcpLayouts.AM_RECV_ATTR);
            long replyEp = (attr & UcpLayouts.AM_RECV_ATTR_FIELD_REPLY_EP) != 0
                    ? UcpText.ALL.get(JAVA_LONG, param + UcpLayouts.AM_RECV_REPLY_EP) : 0;
            return r.arrived(header, headerLength, data, length, attr, replyEp);
        } catch (Throwable t) {
            Log.warn(Subsys.NET, "NET/UCX active message handler failed: %s", t);
            return UcpLayouts.UCS_OK;
        }
    }

    private static void onEpError(MemorySegment arg, MemorySegment ep, int status) {
        try {
            if (TARGETS.get(arg.address()) instanceof EpFailure f) f.failed(status);
        } catch (Throwable t) {
            Log.warn(Subsys.NET, "NET/UCX endpoint error handler failed: %s", t);
        }
    }
}
