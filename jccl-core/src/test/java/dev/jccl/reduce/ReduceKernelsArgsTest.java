package dev.jccl.reduce;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.config.Config;
import dev.jccl.config.ConfigException;
import dev.jccl.config.Knobs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad calls are refused naming their values, before any memory is touched; kernel selection. */
@Timeout(10)
@Tag("unit")
class ReduceKernelsArgsTest {
    private final ReduceKernels kernels = ReduceKernels.vector();

    @Test
    void heapSegmentsAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeSeg = arena.allocate(64);
            MemorySegment heap = MemorySegment.ofArray(new float[16]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> kernels.reduce(DataType.FLOAT32, ReduceOp.SUM, nativeSeg, heap, 16));
            assertTrue(e.getMessage().contains("src is a heap segment"), e.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> kernels.reduce(DataType.FLOAT32, ReduceOp.SUM, heap, nativeSeg, 16));
            assertThrows(IllegalArgumentException.class,
                    () -> kernels.finishAvg(DataType.FLOAT32, heap, 16, 2));
        }
    }

    @Test
    void rangesBeyondASegmentAreRefusedWithoutWriting() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(64);
            MemorySegment small = arena.allocate(60);
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                    () -> kernels.reduce(DataType.FLOAT32, ReduceOp.SUM, dst, dst, small, 16));
            assertTrue(e.getMessage().contains("reduce b") && e.getMessage().contains("64"), e.getMessage());
            assertEquals(0, dst.get(ValueLayout.JAVA_BYTE, 0), "nothing written before the check");
            assertThrows(IndexOutOfBoundsException.class, () -> kernels.reduce(DataType.INT64, ReduceOp.MAX, dst, dst, 9));
            assertThrows(IllegalArgumentException.class, () -> kernels.reduce(DataType.INT8, ReduceOp.SUM, dst, dst, -1));
            assertThrows(IllegalArgumentException.class,
                    () -> kernels.reduce(DataType.INT64, ReduceOp.SUM, dst, dst, Long.MAX_VALUE / 2));
        }
    }

    @Test
    void readOnlyDestinationAndPartialOverlapAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(256);
            assertThrows(IllegalArgumentException.class,
                    () -> kernels.reduce(DataType.INT32, ReduceOp.SUM, buf.asReadOnly(), buf, 16));
            MemorySegment shifted = buf.asSlice(4, 64);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> kernels.reduce(DataType.INT32, ReduceOp.SUM, buf.asSlice(0, 64), shifted, 16));
            assertTrue(e.getMessage().contains("partially overlaps"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> kernels.finishAvg(DataType.INT32, buf, 16, 0));
        }
    }

    @Test
    void aSourceMayBeTheDestinationItself() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(4L * 100);
            for (int i = 0; i < 100; i++) buf.setAtIndex(ValueLayout.JAVA_INT, i, i);
            kernels.reduce(DataType.INT32, ReduceOp.SUM, buf, buf, 100);
            for (int i = 0; i < 100; i++) assertEquals(2 * i, buf.getAtIndex(ValueLayout.JAVA_INT, i));
            MemorySegment other = arena.allocate(4L * 100);
            kernels.reduce(DataType.INT32, ReduceOp.SUM, buf, other, buf, 100);
            assertEquals(198, buf.getAtIndex(ValueLayout.JAVA_INT, 99), "b aliased with dst, a all zeros");
        }
    }

    @Test
    void selectionFollowsTheKnob() {
        assertEquals(ReduceKernels.Kind.SCALAR,
                ReduceKernels.select(Config.of(Map.of("JCCL_REDUCE_KERNEL", "SCALAR")).get(Knobs.REDUCE_KERNEL)).kind());
        ReduceKernels byDefault = ReduceKernels.select(Config.of(Map.of()).get(Knobs.REDUCE_KERNEL));
        assertEquals(ReduceKernels.Kind.VECTOR, byDefault.kind(), "the test JVM loads jdk.incubator.vector");
        assertTrue(byDefault.description().matches("vector, \\d+-bit lanes"), byDefault.description());
        assertTrue(ReduceKernels.vectorUnavailableReason().isEmpty());
        assertThrows(ConfigException.class, () -> Config.of(Map.of("JCCL_REDUCE_KERNEL", "gpu")));
        assertThrows(IllegalArgumentException.class, () -> ReduceKernels.select("gpu"));
    }
}
