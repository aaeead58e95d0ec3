/**
 * Real JVMs as ranks, for tests that need a process to die or a launcher to start it.
 * {@link dev.jccl.testkit.jvm.JavaCommand} is the one command line every forked test JVM uses;
 * {@link dev.jccl.testkit.jvm.ChildJvm} runs one with its output captured and every wait bounded;
 * {@link dev.jccl.testkit.jvm.JvmJob} starts ranks through launch variables with the store hosted
 * by the test. Going through the jccl launcher instead means handing a {@code JavaCommand} to it,
 * which the system tests do (this module cannot see the CLI). Threads as ranks live one package up.
 */
package dev.jccl.testkit.jvm;
