package dev.jccl.verbs;

/**
 * One completion, as in {@code ibv_wc}. Mutable so a poller can reuse an array of them without
 * allocating; providers fill it with {@link #set}.
 */
public final class WorkCompletion {
    private long wrId;
    private WcStatus status = WcStatus.SUCCESS;
    private WcOpcode opcode = WcOpcode.SEND;
    private long byteLen;
    private int imm;
    private boolean hasImm;
    private int qpn;
    private String detail = "";

    /** A blank completion (SUCCESS, SEND, no immediate), to be filled by a poll. */
    public WorkCompletion() {}

    public WorkCompletion set(long wrId, WcStatus status, WcOpcode opcode, long byteLen, int imm, boolean hasImm,
                              int qpn, String detail) {
        this.wrId = wrId;
        this.status = status;
        this.opcode = opcode;
        this.byteLen = byteLen;
        this.imm = imm;
        this.hasImm = hasImm;
        this.qpn = qpn;
        this.detail = detail == null ? "" : detail;
        return this;
    }

    public WorkCompletion copyFrom(WorkCompletion o) {
        return set(o.wrId, o.status, o.opcode, o.byteLen, o.imm, o.hasImm, o.qpn, o.detail);
    }

    public long wrId() { return wrId; }
    public WcStatus status() { return status; }
    public WcOpcode opcode() { return opcode; }
    public long byteLen() { return byteLen; }
    public int imm() { return imm; }
    public boolean hasImm() { return hasImm; }
    public int qpn() { return qpn; }
    /** Why an error happened, e.g. "rkey 0x1a2b unknown at peer"; empty on success. */
    public String detail() { return detail; }

    public boolean ok() { return status == WcStatus.SUCCESS; }

    public static WorkCompletion[] array(int n) {
        WorkCompletion[] a = new WorkCompletion[n];
        for (int i = 0; i < n; i++) a[i] = new WorkCompletion();
        return a;
    }

    @Override
    public String toString() {
        return "wc{wr_id=" + wrId + " " + status + " " + opcode + " len=" + byteLen
                + (hasImm ? " imm=0x" + Integer.toHexString(imm) : "") + " qpn=" + qpn
                + (detail.isEmpty() ? "" : " (" + detail + ")") + "}";
    }
}
