package dev.jccl.provider.ucx;

/**
 * Offsets, sizes and flag values of the libucp structs and enums this module fills, as in
 * {@code ucp.h}/{@code ucp_def.h} of API 1.13 (x86-64 and aarch64 LP64). {@link UcpLibrary} refuses
 * any other major version before a struct is written. Each struct starts with its {@code field_mask}
 * and only the fields named in it are read by UCX, so the rest may stay zero.
 */
final class UcpLayouts {
    private UcpLayouts() {}

    /** ucp_params_t: 80 bytes. */
    static final long PARAMS_BYTES = 80;
    static final long PARAMS_FIELD_MASK = 0;
    static final long PARAMS_FEATURES = 8;
    static final long PARAM_FIELD_FEATURES = 1;
    static final long FEATURE_RMA = 2;
    static final long FEATURE_AM = 64;
    /** An event fd to sleep on (ucp_worker_get_efd/arm), so a waiter is woken by the traffic itself. */
    static final long FEATURE_WAKEUP = 16;

    /** ucp_worker_params_t: 200 bytes. */
    static final long WORKER_PARAMS_BYTES = 200;
    static final long WORKER_PARAMS_THREAD_MODE = 8;
    static final long WORKER_PARAM_FIELD_THREAD_MODE = 1;
    /** UCS_THREAD_MODE_SERIALIZED: this module's worker lock ensures one thread at a time. */
    static final int THREAD_MODE_SERIALIZED = 1;

    /** ucp_ep_params_t: 104 bytes; the error handler is {cb, arg} at 24. */
    static final long EP_PARAMS_BYTES = 104;
    static final long EP_PARAMS_ADDRESS = 8;
    static final long EP_PARAMS_ERR_MODE = 16;
    static final long EP_PARAMS_ERR_HANDLER_CB = 24;
    static final long EP_PARAMS_ERR_HANDLER_ARG = 32;
    static final long EP_PARAM_FIELD_REMOTE_ADDRESS = 1;
    static final long EP_PARAM_FIELD_ERR_HANDLING_MODE = 2;
    static final long EP_PARAM_FIELD_ERR_HANDLER = 4;
    static final int ERR_HANDLING_MODE_NONE = 0;
    static final int ERR_HANDLING_MODE_PEER = 1;

    /** ucp_mem_map_params_t: 40 bytes. */
    static final long MEM_MAP_PARAMS_BYTES = 40;
    static final long MEM_MAP_ADDRESS = 8;
    static final long MEM_MAP_LENGTH = 16;
    static final long MEM_MAP_FIELD_ADDRESS = 1;
    static final long MEM_MAP_FIELD_LENGTH = 2;
    static final long MEM_MAP_FLAGS = 24;
    static final long MEM_MAP_FIELD_FLAGS = 4;
    /** UCP_MEM_MAP_ALLOCATE: UCX allocates the memory itself, from the memory domain peers reach best. */
    static final int MEM_MAP_ALLOCATE = 2;

    /** ucp_mem_attr_t: 32 bytes, for ucp_mem_query. */
    static final long MEM_ATTR_BYTES = 32;
    static final long MEM_ATTR_ADDRESS = 8;
    static final long MEM_ATTR_LENGTH = 16;
    static final long MEM_ATTR_FIELD_ADDRESS = 1;
    static final long MEM_ATTR_FIELD_LENGTH = 2;

    /** ucp_request_param_t: 72 bytes; the callback union sits at 16, user_data at 32. */
    static final long REQUEST_PARAM_BYTES = 72;
    static final long REQUEST_OP_ATTR_MASK = 0;
    static final long REQUEST_FLAGS = 4;
    static final long REQUEST_CB = 16;
    static final long REQUEST_USER_DATA = 32;
    static final long REQUEST_MEMH = 64;
    /** UCP_OP_ATTR_FIELD_MEMH: the local buffer's memory handle, so UCX need not look it up or register it. */
    static final int OP_ATTR_FIELD_MEMH = 256;
    static final int OP_ATTR_FIELD_CALLBACK = 2;
    static final int OP_ATTR_FIELD_USER_DATA = 4;
    static final int OP_ATTR_FIELD_FLAGS = 16;
    static final int EP_CLOSE_FLAG_FORCE = 1;
    /** UCP_AM_SEND_FLAG_REPLY: the receiver gets an endpoint back to us in its callback. */
    static final int AM_SEND_FLAG_REPLY = 1;

    /** ucp_am_handler_param_t: 32 bytes. */
    static final long AM_HANDLER_PARAM_BYTES = 32;
    static final long AM_HANDLER_ID = 8;
    static final long AM_HANDLER_FLAGS = 12;
    static final long AM_HANDLER_CB = 16;
    static final long AM_HANDLER_ARG = 24;
    static final long AM_HANDLER_FIELDS = 1 | 2 | 4 | 8;
    /** WHOLE_MSG | PERSISTENT_DATA: one callback per message, whose eager data we may keep. */
    static final int AM_HANDLER_FLAGS_VALUE = 1 | 2;

    /** ucp_am_recv_param_t: recv_attr at 0, reply_ep at 8. */
    static final long AM_RECV_ATTR = 0;
    static final long AM_RECV_REPLY_EP = 8;
    static final long AM_RECV_ATTR_FIELD_REPLY_EP = 1;
    static final long AM_RECV_ATTR_FLAG_DATA = 1L << 16;
    static final long AM_RECV_ATTR_FLAG_RNDV = 1L << 17;

    /** ucs_status_t values this module tells apart. */
    static final int UCS_OK = 0;
    static final int UCS_INPROGRESS = 1;
    static final int UCS_ERR_BUSY = -15;
    static final int UCS_ERR_UNREACHABLE = -6;
    static final int UCS_ERR_CANCELED = -16;
    /** UCS_ERR_LAST: a returned pointer in [-100, 0) is a status, not a request. */
    static final long UCS_ERR_LAST = -100;
}
