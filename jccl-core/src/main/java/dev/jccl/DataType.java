package dev.jccl;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Element types a collective moves and reduces. Elements are stored in native byte order (little-endian
 * on every platform jccl runs on), packed, with no alignment requirement.
 *
 * <p>{@link #ncclName()} is the name nccl-tests prints in its {@code type} column and accepts for
 * {@code -d}; {@link #parse} also takes the enum name, the NCCL and PyTorch spellings and short forms
 * such as {@code fp16} or {@code bf16}.
 */
public enum DataType {
    FLOAT32(4, "float", true, "float32", "fp32", "f32"),
    FLOAT64(8, "double", true, "float64", "fp64", "f64"),
    FLOAT16(2, "half", true, "float16", "fp16", "f16"),
    BFLOAT16(2, "bfloat16", true, "bf16"),
    INT8(1, "int8", false, "char", "i8"),
    UINT8(1, "uint8", false, "u8"),
    INT32(4, "int32", false, "int", "i32"),
    INT64(8, "int64", false, "long", "i64");

    private final int byteSize;
    private final String ncclName;
    private final boolean floatingPoint;
    private final List<String> aliases;

    DataType(int byteSize, String ncclName, boolean floatingPoint, String... aliases) {
        this.byteSize = byteSize;
        this.ncclName = ncclName;
        this.floatingPoint = floatingPoint;
        this.aliases = List.of(aliases);
    }

    /** Bytes per element. */
    public int byteSize() {
        return byteSize;
    }

    /** The nccl-tests name: float, double, half, bfloat16, int8, uint8, int32, int64. */
    public String ncclName() {
        return ncclName;
    }

    public boolean isFloatingPoint() {
        return floatingPoint;
    }

    /** Bytes taken by {@code count} elements; refuses a negative count or a product beyond a long. */
    public long bytes(long count) {
        if (count < 0) throw new IllegalArgumentException("negative element count " + count + " of " + ncclName);
        try {
            return Math.multiplyExact(count, (long) byteSize);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(count + " elements of " + ncclName + " overflow a byte count");
        }
    }

    /**
     * Parses a type name leniently: case and surrounding blanks are ignored, and the nccl-tests name,
     * the enum name and the common aliases are all accepted ("float", "FLOAT32", "fp32", "bf16", "int").
     */
    public static DataType parse(String text) {
        String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (DataType t : values()) {
            if (s.equals(t.ncclName) || s.equals(t.name().toLowerCase(Locale.ROOT)) || t.aliases.contains(s)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown data type '" + text + "'; expected one of "
                + Arrays.stream(values()).map(DataType::ncclName).collect(Collectors.joining(", ")));
    }
}
