package dev.jccl.algo;

import java.util.SplittableRandom;

/**
 * Element arithmetic of the simulators: values are 64-bit patterns, read either as longs or as
 * doubles, and reduced with sum. Double sums depend on the order of additions, which is what lets a
 * test tell two reduction orders apart; sums of two operands are commutative, so only the grouping
 * matters.
 */
enum Arith {
    LONG_SUM {
        @Override long combine(long operand, long incoming) {
            return operand + incoming;
        }

        @Override long sample(SplittableRandom random) {
            return random.nextLong();
        }
    },
    DOUBLE_SUM {
        @Override long combine(long operand, long incoming) {
            return Double.doubleToRawLongBits(Double.longBitsToDouble(operand) + Double.longBitsToDouble(incoming));
        }

        @Override long sample(SplittableRandom random) {
            // Full mantissas over a few binades: regrouping a sum of six such values changes its bits
            // about 40% of the time, so over tens of elements a wrong order is all but certain to show.
            double v = (random.nextDouble() - 0.5) * Math.scalb(1.0, random.nextInt(-4, 5));
            return Double.doubleToRawLongBits(v);
        }
    };

    abstract long combine(long operand, long incoming);

    abstract long sample(SplittableRandom random);

    String show(long bits) {
        return this == LONG_SUM ? Long.toString(bits) : Double.toString(Double.longBitsToDouble(bits));
    }
}
