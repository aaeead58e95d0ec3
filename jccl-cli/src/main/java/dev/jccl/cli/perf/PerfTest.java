package dev.jccl.cli.perf;

import dev.jccl.verbs.Opcode;

import java.util.Locale;

/** The point-to-point tests, named as perftest names its binaries. */
public enum PerfTest {
    WRITE_BW(Opcode.RDMA_WRITE, false),
    SEND_BW(Opcode.SEND, false),
    READ_BW(Opcode.RDMA_READ, false),
    WRITE_LAT(Opcode.RDMA_WRITE_WITH_IMM, true),
    SEND_LAT(Opcode.SEND, true);

    /** What the measured side posts. Latency tests answer each message with the same opcode. */
    public final Opcode opcode;
    public final boolean latency;

    PerfTest(Opcode opcode, boolean latency) {
        this.opcode = opcode;
        this.latency = latency;
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static PerfTest parse(String s) {
        for (PerfTest t : values()) if (t.cliName().equals(s.toLowerCase(Locale.ROOT))) return t;
        throw new IllegalArgumentException("unknown test '" + s + "'; one of write_bw, send_bw, read_bw, write_lat, send_lat");
    }
}
