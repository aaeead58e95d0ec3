package dev.jccl.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static dev.jccl.provider.ucx.UcpLayouts.UCS_ERR_BUSY;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A worker's event fd (UCP_FEATURE_WAKEUP): a thread arms it under the worker lock once progress
 * found nothing, then sleeps in {@code ppoll} without the lock until traffic for the worker, or a
 * {@link #signal}, makes the fd readable. Only one thread sleeps at a time (the structs are shared).
 */
final class UcpWakeup {
    private final MemorySegment worker;
    private final int eventFd;
    private final MemorySegment pollFd;   // struct pollfd {int fd; short events; short revents}
    private final MemorySegment timespec; // struct timespec {long sec; long nsec}

    UcpWakeup(MemorySegment worker, Arena arena) throws Throwable {
        this.worker = worker;
        MemorySegment out = arena.allocate(ADDRESS);
        UcpWorker.check("ucp_worker_get_efd", (int) Ucp.WORKER_GET_EFD.invokeExact(worker, out));
        this.eventFd = out.get(JAVA_INT, 0);
        this.pollFd = arena.allocate(8, 8);
        this.timespec = arena.allocate(16, 8);
    }

    /** Arms the fd; false when events are already pending (progress again rather than sleep). Hold the lock. */
    boolean arm() {
        try {
            int st = (int) Ucp.WORKER_ARM.invokeExact(worker);
            if (st == UCS_ERR_BUSY) return false;
            UcpWorker.check("ucp_worker_arm", st);
            return true;
        } catch (UcpWorker.UcpException e) {
            throw e;
        } catch (Throwable t) {
            throw Ucp.fault("ucp_worker_arm", t);
        }
    }

    /** Sleeps at most {@code ns} on the armed fd. Call without the lock. */
    void sleep(long ns) {
        pollFd.set(JAVA_INT, 0, eventFd);
        pollFd.set(JAVA_SHORT, 4, (short) 1); // POLLIN
        timespec.set(JAVA_LONG, 0, ns / 1_000_000_000L);
        timespec.set(JAVA_LONG, 8, ns % 1_000_000_000L);
        try {
            int ready = (int) Ucp.PPOLL.invokeExact(pollFd, 1L, timespec, MemorySegment.NULL);
            assert ready >= -1;
        } catch (Throwable t) {
            throw Ucp.fault("ppoll", t);
        }
    }

    /** Ends a {@link #sleep}, or makes the next one return at once; callable from any thread. */
    void signal() {
        try {
            int st = (int) Ucp.WORKER_SIGNAL.invokeExact(worker);
            assert st <= 0;
        } catch (Throwable t) {
            throw Ucp.fault("ucp_worker_signal", t);
        }
    }
}
