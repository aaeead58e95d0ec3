package dev.jccl;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
@Tag("unit")
class DataTypeTest {
    @Test
    void sizesAndNcclNamesMatchNcclTests() {
        String[] names = {"float", "double", "half", "bfloat16", "int8", "uint8", "int32", "int64"};
        int[] sizes = {4, 8, 2, 2, 1, 1, 4, 8};
        DataType[] types = DataType.values();
        assertEquals(names.length, types.length);
        for (int i = 0; i < types.length; i++) {
            assertEquals(names[i], types[i].ncclName(), types[i].name());
            assertEquals(sizes[i], types[i].byteSize(), types[i].name());
            assertEquals(types[i], DataType.parse(names[i]));
        }
        assertTrue(DataType.BFLOAT16.isFloatingPoint());
        assertFalse(DataType.UINT8.isFloatingPoint());
    }

    @Test
    void parseIsLenient() {
        assertEquals(DataType.FLOAT32, DataType.parse(" FLOAT32 "));
        assertEquals(DataType.FLOAT32, DataType.parse("fp32"));
        assertEquals(DataType.FLOAT16, DataType.parse("Float16"));
        assertEquals(DataType.FLOAT16, DataType.parse("fp16"));
        assertEquals(DataType.BFLOAT16, DataType.parse("BF16"));
        assertEquals(DataType.FLOAT64, DataType.parse("f64"));
        assertEquals(DataType.INT32, DataType.parse("int"));
        assertEquals(DataType.INT64, DataType.parse("long"));
        assertEquals(DataType.INT8, DataType.parse("char"));
        Arrays.stream(DataType.values()).forEach(t -> assertEquals(t, DataType.parse(t.name().toLowerCase())));
    }

    @Test
    void parseRefusesUnknownNamesListingTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DataType.parse("uint32"));
        assertTrue(e.getMessage().contains("'uint32'"), e.getMessage());
        assertTrue(e.getMessage().contains("bfloat16"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DataType.parse(""));
        assertThrows(IllegalArgumentException.class, () -> DataType.parse(null));
    }

    @Test
    void bytesRefusesNegativeAndOverflowingCounts() {
        assertEquals(12, DataType.FLOAT32.bytes(3));
        assertEquals(0, DataType.INT64.bytes(0));
        assertThrows(IllegalArgumentException.class, () -> DataType.FLOAT32.bytes(-1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DataType.INT64.bytes(Long.MAX_VALUE / 4));
        assertTrue(e.getMessage().contains("int64"), e.getMessage());
    }

    @Test
    void reduceOpNamesAndLenientParse() {
        String[] names = {"sum", "prod", "min", "max", "avg"};
        ReduceOp[] ops = ReduceOp.values();
        assertEquals(names.length, ops.length);
        for (int i = 0; i < ops.length; i++) {
            assertEquals(names[i], ops[i].ncclName());
            assertEquals(ops[i], ReduceOp.parse(names[i].toUpperCase()));
        }
        assertEquals(ReduceOp.AVG, ReduceOp.parse(" mean"));
        assertEquals(ReduceOp.PROD, ReduceOp.parse("product"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReduceOp.parse("xor"));
        assertTrue(e.getMessage().contains("'xor'") && e.getMessage().contains("avg"), e.getMessage());
    }
}
