package dev.jccl;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The half-type conversions: known values, ties to even, overflow, subnormals, NaN; and for bfloat16
 * every rounding boundary of every value against a brute-force nearest-value search.
 */
@Timeout(30)
@Tag("unit")
class HalfConversionTest {
    @Test
    void float16KnownValues() {
        assertEquals(0x3C00, Half.fromFloat(1f) & 0xFFFF);
        assertEquals(Half.MAX_VALUE, Half.fromFloat(65504f));
        assertEquals(Half.MAX_VALUE, Half.fromFloat(65519.99f), "below the midpoint to 2^16 rounds down");
        assertEquals(Half.POSITIVE_INFINITY, Half.fromFloat(65520f), "the midpoint ties to even: infinity");
        assertEquals(Half.NEGATIVE_INFINITY, Half.fromFloat(Float.NEGATIVE_INFINITY));
        assertEquals(0x0001, Half.fromFloat(0x1p-24f), "smallest subnormal");
        assertEquals(0x0000, Half.fromFloat(0x1p-25f), "half the smallest subnormal ties to even zero");
        assertEquals(0x0002, Half.fromFloat(0x1.8p-24f), "1.5 quanta ties to even 2");
        assertEquals(0x3C00, Half.fromFloat(1f + 0x1p-11f), "1 + half an ulp ties to even 1");
        assertEquals(0x3C02, Half.fromFloat(1f + 3 * 0x1p-11f), "1 + 1.5 ulp ties to even 1 + 2 ulp");
        assertEquals((short) 0x8000, Half.fromFloat(-0f));
        assertEquals(-2f, Half.toFloat((short) 0xC000));
        assertEquals(0x1p-24f, Half.toFloat((short) 0x0001));
        assertEquals(Float.POSITIVE_INFINITY, Half.toFloat(Half.POSITIVE_INFINITY));
        assertTrue(Half.isNaN(Half.fromFloat(Float.NaN)));
        assertTrue(Half.isNaN(Half.fromFloat(Float.intBitsToFloat(0xFF800001))));
        assertTrue(Float.isNaN(Half.toFloat((short) 0x7C01)));
    }

    @Test
    void float16RoundTripsEveryValue() {
        for (int h = 0; h < 0x10000; h++) {
            short bits = (short) h;
            if (Half.isNaN(bits)) continue;
            assertEquals(bits, Half.fromFloat(Half.toFloat(bits)), "0x" + Integer.toHexString(bits & 0xFFFF));
        }
    }

    @Test
    void bfloat16KnownValues() {
        assertEquals(0x3F80, BFloat16.fromFloat(1f));
        assertEquals(0x3F80, BFloat16.fromFloat(1f + 0x1p-8f), "1 + half an ulp ties to even 1");
        assertEquals(0x3F82, BFloat16.fromFloat(1f + 3 * 0x1p-8f), "1 + 1.5 ulp ties to even 1 + 2 ulp");
        assertEquals(0x3F81, BFloat16.fromFloat(Math.nextUp(1f + 0x1p-8f)), "just above the tie rounds up");
        assertEquals(BFloat16.POSITIVE_INFINITY, BFloat16.fromFloat(Float.MAX_VALUE), "overflow rounds to infinity");
        assertEquals(0x7F7F, BFloat16.fromFloat(Float.intBitsToFloat(0x7F7F7FFF)), "just below the tie stays finite");
        assertEquals(BFloat16.NEGATIVE_INFINITY, BFloat16.fromFloat(Float.NEGATIVE_INFINITY));
        assertEquals((short) 0x8000, BFloat16.fromFloat(-0f));
        assertEquals(0x0001, BFloat16.fromFloat(Float.intBitsToFloat(0x00010000)), "subnormals keep their bits");
        assertEquals(-1.5f, BFloat16.toFloat((short) 0xBFC0));
    }

    @Test
    void bfloat16KeepsNaNQuietAndNeverMakesInfinity() {
        // A NaN whose payload sits only in the dropped low bits would round to infinity without care.
        assertEquals(0x7FC0, BFloat16.fromFloat(Float.intBitsToFloat(0x7F800001)) & 0xFFFF);
        assertEquals(0xFFC0, BFloat16.fromFloat(Float.intBitsToFloat(0xFF80FFFF)) & 0xFFFF);
        assertEquals(0x7FC0, BFloat16.fromFloat(Float.NaN) & 0xFFFF);
        assertEquals(0x7FD5, BFloat16.fromFloat(Float.intBitsToFloat(0x7F95_1234)) & 0xFFFF, "upper payload kept");
        assertTrue(Float.isNaN(BFloat16.toFloat((short) 0x7F81)));
    }

    @Test
    void bfloat16MatchesNearestEvenAtEveryBoundary() {
        for (int hi = 0; hi < 0x10000; hi++) {
            int base = hi << 16;
            if (Float.isNaN(Float.intBitsToFloat(base)) || (hi & 0x7FFF) == 0x7F80) continue;
            for (int low : new int[] {0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF}) {
                float f = Float.intBitsToFloat(base | low);
                if (Float.isNaN(f)) continue;
                assertEquals(nearestEven(f), BFloat16.fromFloat(f), () -> Integer.toHexString(Float.floatToRawIntBits(f)));
            }
        }
        Random random = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            float f = Float.intBitsToFloat(random.nextInt());
            if (!Float.isNaN(f)) assertEquals(nearestEven(f), BFloat16.fromFloat(f));
        }
    }

    /** Brute force: the nearer of the two bfloat16 neighbours, the even one on a tie (in exact double arithmetic). */
    private static short nearestEven(float f) {
        int bits = Float.floatToRawIntBits(f);
        short down = (short) (bits >>> 16);
        short up = (short) (down + 1);
        double dDown = Math.abs((double) f - BFloat16.toFloat(down));
        double upValue = (up & 0x7FFF) == 0x7F80 ? Math.copySign(0x1p128, f) : BFloat16.toFloat(up);
        double dUp = Math.abs(upValue - f);
        if (dDown < dUp) return down;
        if (dUp < dDown) return up;
        return (down & 1) == 0 ? down : up;
    }
}
