/**
 * The collective runtime behind {@link dev.jccl.Communicator}.
 *
 * <ul>
 *   <li>{@link dev.jccl.comm.CommFactory}: the one entry the public API calls; exchanges host ids
 *       and providers through the store and builds the rest.</li>
 *   <li>{@code CommunicatorImpl} checks calls ({@code Calls}), numbers them ({@code OpDescriptor}:
 *       the local sequence, the collective sequence ranks agree on, per-peer send/receive
 *       sequences), records them ({@code FlightRecorder}) and queues them.</li>
 *   <li>{@code CommEngine}, an {@link dev.jccl.util.Agent}, runs the {@code OpQueue} one operation
 *       at a time, in issue order: {@code RunBuilder} prepares each (plan from {@code PlanCache},
 *       links from {@code LinkTable}, memory from {@code UserMemory} and {@code Scratch}), and
 *       {@code doWork()} advances it, driven by {@code ProgressAgent} or by a waiting caller, as
 *       {@code ProgressHandOff} decides; how each waits is {@link dev.jccl.util.WaitPolicy}'s.</li>
 *   <li>{@code Failures}, {@code AbortBoard} and {@code FailureReport} notice stalls and other
 *       ranks' failures, and turn the first failure of any rank into the same report on every rank.</li>
 * </ul>
 *
 * Threads: callers issue (any thread, serialized); progress happens under one lock, on the agent
 * thread or a waiting caller. Every blocking wait is bounded by JCCL_TIMEOUT.
 */
package dev.jccl.comm;
