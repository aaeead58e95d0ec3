package dev.jccl;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Reduction operators. {@link #AVG} reduces like {@link #SUM} and then divides the total by the number
 * of contributions once at the end (see {@code dev.jccl.reduce} for the exact rounding and integer
 * rules).
 */
public enum ReduceOp {
    SUM("sum"),
    PROD("prod", "product", "mul"),
    MIN("min", "minimum"),
    MAX("max", "maximum"),
    AVG("avg", "average", "mean");

    private final String ncclName;
    private final List<String> aliases;

    ReduceOp(String ncclName, String... aliases) {
        this.ncclName = ncclName;
        this.aliases = List.of(aliases);
    }

    /** The nccl-tests name: sum, prod, min, max, avg. */
    public String ncclName() {
        return ncclName;
    }

    /** Parses an operator name ignoring case and surrounding blanks ("sum", "SUM", "mean", "product"). */
    public static ReduceOp parse(String text) {
        String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (ReduceOp op : values()) {
            if (s.equals(op.ncclName) || op.aliases.contains(s)) return op;
        }
        throw new IllegalArgumentException("unknown reduce op '" + text + "'; expected one of "
                + Arrays.stream(values()).map(ReduceOp::ncclName).collect(Collectors.joining(", ")));
    }
}
