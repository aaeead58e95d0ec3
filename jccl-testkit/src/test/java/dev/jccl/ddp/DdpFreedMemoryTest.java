package dev.jccl.ddp;

import dev.jccl.CommAbortedException;
import dev.jccl.DataType;
import dev.jccl.testkit.ddp.InMemoryCollectives;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bucket memory that the collectives' owner frees mid-step (a communicator aborted from another
 * thread, as when a job is cancelled) fails the step as that abort, not as the memory access it cut.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("unit")
class DdpFreedMemoryTest {
    @Test
    void aStepWhoseBucketMemoryWasFreedFailsAsAnAbort() {
        try (InMemoryCollectives group = new InMemoryCollectives(1, 20_000);
             Arena params = Arena.ofShared()) {
            OwnedMemory coll = new OwnedMemory(group.member(0));
            FlatParams fp = new FlatParams(params, 10, 7, 1000);
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(64).build()) {
                ddp.gradReady("p2");
                coll.owner.close(); // what an abort does to memory from Communicator.allocate
                CommAbortedException e = assertThrows(CommAbortedException.class, () -> ddp.gradReady("p1"));
                assertTrue(e.getMessage().contains("rank 0") && e.getMessage().contains("bucket memory"), e.getMessage());
                assertInstanceOf(IllegalStateException.class, e.getCause(), "the interrupted access is kept as the cause");
                IllegalStateException later = assertThrows(IllegalStateException.class, ddp::finish);
                assertInstanceOf(CommAbortedException.class, later.getCause(), "unusable afterwards, for that reason");
            }
        }
    }

    /** Collectives whose bucket memory belongs to an arena of their own, as a communicator's does. */
    private static final class OwnedMemory implements GradientCollectives {
        final Arena owner = Arena.ofShared();
        private final GradientCollectives inner;

        OwnedMemory(GradientCollectives inner) {
            this.inner = inner;
        }

        @Override
        public MemorySegment allocate(long bytes, Arena fallback) {
            return owner.allocate(bytes, 8);
        }

        @Override
        public int rank() {
            return inner.rank();
        }

        @Override
        public int worldSize() {
            return inner.worldSize();
        }

        @Override
        public Pending broadcast(MemorySegment buffer, DataType type, int root) {
            return inner.broadcast(buffer, type, root);
        }

        @Override
        public Pending allReduceSum(MemorySegment buffer, DataType type) {
            return inner.allReduceSum(buffer, type);
        }

        @Override
        public Pending reduceScatterSum(MemorySegment input, MemorySegment output, DataType type) {
            return inner.reduceScatterSum(input, output, type);
        }

        @Override
        public Pending allGather(MemorySegment input, MemorySegment output, DataType type) {
            return inner.allGather(input, output, type);
        }
    }
}
