package dev.jccl.verbs;

/** Completion statuses, mirroring {@code ibv_wc_status}. */
public enum WcStatus {
    SUCCESS,
    /** The receive buffer was smaller than the incoming SEND. */
    LOC_LEN_ERR,
    /** A local sge did not fit its region, or the region lacks the right (e.g. LOCAL_WRITE for READ). */
    LOC_PROT_ERR,
    /** The peer refused: unknown rkey, range outside the region, or missing remote right. */
    REM_ACCESS_ERR,
    /** The peer could not accept the request, e.g. a SEND larger than its posted receive buffer. */
    REM_INV_REQ_ERR,
    /** The peer had no receive posted for a SEND or WRITE_WITH_IMM within the RNR timeout. */
    RNR_RETRY_EXC,
    /** The peer could not be reached or did not answer. */
    RETRY_EXC,
    /** The queue pair went to ERROR; this request was flushed without executing. */
    WR_FLUSH_ERR
}
