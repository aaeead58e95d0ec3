package dev.jccl.cli.tool;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.Jccl;
import dev.jccl.bootstrap.Rendezvous;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One rank of a toolkit job: the job's rendezvous, kept open for the whole run, so the tool can
 * swap facts between ranks (host, limits, knobs) and make one communicator per measurement, each
 * with its own knobs (a QP count, a FIFO size) under its own store namespace. Closing waits for every
 * rank first: rank 0 may host the store the others still read.
 */
public final class ToolJob implements AutoCloseable {
    private final Rendezvous rv;

    private ToolJob(Rendezvous rv) {
        this.rv = rv;
    }

    /** Joins the job this process is a rank of (launcher variables, or a lone rank 0 of 1). */
    public static ToolJob join() {
        return new ToolJob(Rendezvous.fromEnvironment());
    }

    public int rank() {
        return rv.environment().rank();
    }

    public int size() {
        return rv.environment().worldSize();
    }

    /** Ranks on this host, as the launcher says. */
    public int localSize() {
        return rv.environment().localWorldSize();
    }

    /** The host of the job's store (MASTER_ADDR): a communicator's tcp interface is chosen from it. */
    public String storeHost() {
        return rv.environment().masterAddr();
    }

    /** Every rank's {@code mine}, indexed by rank; all ranks call it with the same tags in the same order. */
    public List<String> gather(String tag, String mine) {
        return rv.peers().allGather(tag, mine.getBytes(StandardCharsets.UTF_8)).stream()
                .map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }

    /** A communicator of every rank, with {@code knobs} over the environment's; {@code namespace} must be new to the job. */
    public Communicator communicator(String namespace, Map<String, String> knobs) {
        return Jccl.init(CommOptions.builder().store(rv.store()).rank(rank()).size(size()).namespace(namespace)
                .knobs(knobs).build());
    }

    public void barrier() {
        rv.barrier();
    }

    @Override
    public void close() {
        try {
            rv.barrier();
        } finally {
            rv.close();
        }
    }
}
