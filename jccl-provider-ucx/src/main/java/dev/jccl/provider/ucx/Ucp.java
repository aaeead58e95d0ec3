package dev.jccl.provider.ucx;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The libucp entry points this provider calls, each with its C signature. Only touched after
 * {@link UcpLibrary#unavailabilityCause()} came back empty (the class fails to initialise
 * otherwise). Calls on one worker must be serialised by the caller ({@link UcpWorker}'s lock).
 */
final class Ucp {
    private Ucp() {}

    private static final FunctionDescriptor STATUS_PTR_EP_PARAM = FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS);

    static final MethodHandle CONFIG_READ = UcpLibrary.ucp("ucp_config_read",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle CONFIG_MODIFY = UcpLibrary.ucp("ucp_config_modify",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle CONFIG_RELEASE = UcpLibrary.ucp("ucp_config_release", FunctionDescriptor.ofVoid(ADDRESS));
    static final MethodHandle INIT_VERSION = UcpLibrary.ucp("ucp_init_version",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle CLEANUP = UcpLibrary.ucp("ucp_cleanup", FunctionDescriptor.ofVoid(ADDRESS));
    static final MethodHandle CONTEXT_PRINT_INFO = UcpLibrary.ucp("ucp_context_print_info",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));

    static final MethodHandle WORKER_CREATE = UcpLibrary.ucp("ucp_worker_create",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle WORKER_DESTROY = UcpLibrary.ucp("ucp_worker_destroy", FunctionDescriptor.ofVoid(ADDRESS));
    static final MethodHandle WORKER_GET_ADDRESS = UcpLibrary.ucp("ucp_worker_get_address",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle WORKER_RELEASE_ADDRESS = UcpLibrary.ucp("ucp_worker_release_address",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    static final MethodHandle WORKER_PROGRESS = UcpLibrary.ucp("ucp_worker_progress",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));
    static final MethodHandle WORKER_GET_EFD = UcpLibrary.ucp("ucp_worker_get_efd",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle WORKER_ARM = UcpLibrary.ucp("ucp_worker_arm", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    static final MethodHandle WORKER_SIGNAL = UcpLibrary.ucp("ucp_worker_signal", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    static final MethodHandle SET_AM_HANDLER = UcpLibrary.ucp("ucp_worker_set_am_recv_handler",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    static final MethodHandle EP_CREATE = UcpLibrary.ucp("ucp_ep_create",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle EP_CLOSE_NBX = UcpLibrary.ucp("ucp_ep_close_nbx", STATUS_PTR_EP_PARAM);
    // The calls of the data path return their ucs_status_ptr_t as a 64-bit integer, and take the
    // local buffer as one: the same registers as a pointer, and no segment made per call.
    static final MethodHandle EP_FLUSH_NBX = UcpLibrary.ucp("ucp_ep_flush_nbx", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS));
    static final MethodHandle EP_PRINT_INFO = UcpLibrary.ucp("ucp_ep_print_info", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));

    static final MethodHandle MEM_MAP = UcpLibrary.ucp("ucp_mem_map",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle MEM_QUERY = UcpLibrary.ucp("ucp_mem_query", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle MEM_UNMAP = UcpLibrary.ucp("ucp_mem_unmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle RKEY_PACK = UcpLibrary.ucp("ucp_rkey_pack",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle RKEY_BUFFER_RELEASE = UcpLibrary.ucp("ucp_rkey_buffer_release",
            FunctionDescriptor.ofVoid(ADDRESS));
    static final MethodHandle EP_RKEY_UNPACK = UcpLibrary.ucp("ucp_ep_rkey_unpack",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle RKEY_DESTROY = UcpLibrary.ucp("ucp_rkey_destroy", FunctionDescriptor.ofVoid(ADDRESS));

    static final MethodHandle PUT_NBX = UcpLibrary.ucp("ucp_put_nbx",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
    static final MethodHandle GET_NBX = UcpLibrary.ucp("ucp_get_nbx",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
    static final MethodHandle AM_SEND_NBX = UcpLibrary.ucp("ucp_am_send_nbx",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    static final MethodHandle AM_RECV_DATA_NBX = UcpLibrary.ucp("ucp_am_recv_data_nbx",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
    static final MethodHandle AM_DATA_RELEASE = UcpLibrary.ucp("ucp_am_data_release",
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG));
    static final MethodHandle REQUEST_FREE = UcpLibrary.ucp("ucp_request_free", FunctionDescriptor.ofVoid(JAVA_LONG));

    static final MethodHandle STATUS_STRING = UcpLibrary.ucs("ucs_status_string", FunctionDescriptor.of(ADDRESS, JAVA_INT));

    static final MethodHandle OPEN_MEMSTREAM = UcpLibrary.libc("open_memstream", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle FCLOSE = UcpLibrary.libc("fclose", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    /** int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *mask) */
    static final MethodHandle PPOLL = UcpLibrary.libc("ppoll",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    static final MethodHandle FREE = UcpLibrary.libc("free", FunctionDescriptor.ofVoid(ADDRESS));

    /** "Destination is unreachable (-6)": what a ucs_status_t means, for messages. */
    static String statusText(int status) {
        try {
            MemorySegment s = (MemorySegment) STATUS_STRING.invokeExact(status);
            return UcpText.view(s, 256).getString(0) + " (" + status + ")";
        } catch (Throwable t) {
            return "status " + status;
        }
    }

    /** Whether a returned ucs_status_ptr_t is an error code rather than a request or NULL. */
    static boolean isError(MemorySegment statusPtr) {
        return isError(statusPtr.address());
    }

    static boolean isError(long v) {
        return v < 0 && v >= UcpLayouts.UCS_ERR_LAST;
    }

    /** Rethrows what a downcall threw (linkage errors only: UCX reports failures as statuses). */
    static RuntimeException fault(String call, Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(call + " failed: " + t, t);
    }
}
