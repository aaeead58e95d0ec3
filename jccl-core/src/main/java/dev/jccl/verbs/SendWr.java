package dev.jccl.verbs;

/**
 * A send-queue work request, as {@code ibv_send_wr} with one sge.
 *
 * <p><b>Owned by the caller and reusable.</b> As with {@code ibv_post_send}, a provider reads the
 * request during {@link QueuePair#postSend} and keeps a copy of whatever it needs later, so the
 * caller may change and post the same object again as soon as the call returns. That is what lets a
 * sender keep one request per link and post every chunk without allocating: {@link #set} refills
 * it. Not thread-safe; one posting thread at a time, as the queue itself expects.
 *
 * <p>Fields: {@code wrId} is returned in the completion; the local memory ({@code localAddress},
 * {@code length}, {@code lkey}) is the source of SEND/WRITE and the sink of READ; {@code remoteAddress}
 * and {@code rkey} name peer memory (RDMA ops only); {@code imm} is the immediate
 * (RDMA_WRITE_WITH_IMM only); an unsignaled request reports only errors.
 */
public final class SendWr {
    private long wrId;
    private Opcode opcode;
    private long localAddress;
    private long length;
    private int lkey;
    private long remoteAddress;
    private int rkey;
    private int imm;
    private boolean signaled;

    public SendWr(long wrId, Opcode opcode, Sge local, long remoteAddress, int rkey, int imm, boolean signaled) {
        if (local == null) throw new IllegalArgumentException("opcode and sge are required");
        set(wrId, opcode, local.address(), local.length(), local.lkey(), remoteAddress, rkey, imm, signaled);
    }

    /** Refills this request in place (see the class comment); checks as the constructor does. */
    public SendWr set(long wrId, Opcode opcode, long localAddress, long length, int lkey, long remoteAddress, int rkey,
                      int imm, boolean signaled) {
        if (opcode == null) throw new IllegalArgumentException("opcode and sge are required");
        if (length < 0) throw new IllegalArgumentException("negative length " + length);
        this.wrId = wrId;
        this.opcode = opcode;
        this.localAddress = localAddress;
        this.length = length;
        this.lkey = lkey;
        this.remoteAddress = remoteAddress;
        this.rkey = rkey;
        this.imm = imm;
        this.signaled = signaled;
        return this;
    }

    /** Makes this request a copy of {@code o}; for providers that must keep a request beyond the post. */
    public SendWr copyFrom(SendWr o) {
        return set(o.wrId, o.opcode, o.localAddress, o.length, o.lkey, o.remoteAddress, o.rkey, o.imm, o.signaled);
    }

    public static SendWr send(long wrId, Sge local) {
        return new SendWr(wrId, Opcode.SEND, local, 0, 0, 0, true);
    }

    public static SendWr write(long wrId, Sge local, long remoteAddress, int rkey) {
        return new SendWr(wrId, Opcode.RDMA_WRITE, local, remoteAddress, rkey, 0, true);
    }

    public static SendWr writeWithImm(long wrId, Sge local, long remoteAddress, int rkey, int imm) {
        return new SendWr(wrId, Opcode.RDMA_WRITE_WITH_IMM, local, remoteAddress, rkey, imm, true);
    }

    public static SendWr read(long wrId, Sge local, long remoteAddress, int rkey) {
        return new SendWr(wrId, Opcode.RDMA_READ, local, remoteAddress, rkey, 0, true);
    }

    /** A new request like this one that reports only errors. */
    public SendWr unsignaled() {
        return new SendWr(wrId, opcode, local(), remoteAddress, rkey, imm, false);
    }

    public long wrId() { return wrId; }
    public Opcode opcode() { return opcode; }
    public long localAddress() { return localAddress; }
    public long length() { return length; }
    public int lkey() { return lkey; }
    public long remoteAddress() { return remoteAddress; }
    public int rkey() { return rkey; }
    public int imm() { return imm; }
    public boolean signaled() { return signaled; }

    /** The local memory as an sge (a new object: for tests and messages, not for the data path). */
    public Sge local() {
        return new Sge(localAddress, length, lkey);
    }

    @Override
    public String toString() {
        return "SendWr{wr_id=" + wrId + " " + opcode + " local=[0x" + Long.toHexString(localAddress) + ", +" + length
                + ") lkey=0x" + Integer.toHexString(lkey) + " remote=0x" + Long.toHexString(remoteAddress) + " rkey=0x"
                + Integer.toHexString(rkey) + " imm=0x" + Integer.toHexString(imm) + (signaled ? "" : " unsignaled") + "}";
    }
}
