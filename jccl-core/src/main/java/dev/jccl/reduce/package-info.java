/**
 * Reduction kernels: {@code dst[i] = a[i] op b[i]} for every {@link dev.jccl.DataType} and
 * {@link dev.jccl.ReduceOp}, over native {@link java.lang.foreign.MemorySegment}s, with a scalar
 * reference ({@code ScalarKernels}) and Vector API versions checked against it bit for bit. The
 * collective layer calls them on every received chunk; {@link dev.jccl.reduce.ReduceKernels} is the
 * entry point. Pure code: no I/O, threads or clocks.
 *
 * <h2>Semantics</h2>
 * <ul>
 * <li><b>Layout.</b> Elements are packed in native byte order; segments need no alignment.</li>
 * <li><b>Integers</b> wrap on overflow (two's complement, like C): INT8 and UINT8 sums and products
 *     are taken mod 256, INT32 mod 2^32, INT64 mod 2^64. UINT8 MIN/MAX compare unsigned.</li>
 * <li><b>Floating point</b> SUM and PROD are one IEEE operation per element, rounded to nearest even;
 *     MIN/MAX follow {@link java.lang.Math#min(float, float)}: -0.0 is below +0.0 and a NaN operand
 *     makes the result NaN. <b>Every NaN result is written as the canonical quiet NaN</b>
 *     ({@link java.lang.Float#NaN}, {@link java.lang.Double#NaN}, {@link dev.jccl.Half#NaN},
 *     {@link dev.jccl.BFloat16#NaN}): Java leaves NaN payloads unspecified, and scalar, vector and
 *     interpreted code pick different ones, so without this ranks could disagree in the bits.</li>
 * <li><b>Half types</b> (FLOAT16, BFLOAT16): both operands widen exactly to float32, the op runs in
 *     float32, and the result rounds back to the half type once per element. float32 has at least
 *     2p+2 significant bits for both half types (p = 11 and 8), so this double rounding is innocuous
 *     for SUM and PROD: each step equals the correctly rounded half-precision operation. A reduction
 *     over n ranks is a chain of n-1 such steps, each rounded to the half type as the partial result
 *     travels (like NCCL), so its error grows like (n-1)·u·Σ|x_i| with u = 2^-11 for FLOAT16 and 2^-8
 *     for BFLOAT16, not like the single rounding a float32 accumulator would give.</li>
 * <li><b>AVG</b> reduces exactly like SUM; {@code finishAvg} then divides each element by the number of
 *     contributions n, once. Floating types divide (FLOAT32 and the half types by {@code (float) n} in
 *     float32, FLOAT64 by {@code (double) n}), which is correctly rounded, rather than multiplying by
 *     1/n, which is not (1/3 is inexact). Integer types divide the wrapped sum, truncating toward zero
 *     (UINT8 divides unsigned); a sum that overflowed therefore gives an average that did too.</li>
 * </ul>
 */
package dev.jccl.reduce;
