/**
 * The flight-recorder events jccl commits ({@code dev.jccl.Collective}, {@code dev.jccl.Bucket},
 * {@code dev.jccl.Connection}, {@code dev.jccl.Failure}). Not exported: a client reads them
 * through JFR (a recording, {@code jfr print --events 'dev.jccl.*'}, or event streaming), never
 * as classes, so their fields can grow without an API change.
 */
package dev.jccl.trace.event;
