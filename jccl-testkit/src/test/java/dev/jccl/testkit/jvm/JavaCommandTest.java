package dev.jccl.testkit.jvm;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one JVM command line: what it holds, in which order, and how a prefix wraps it. */
@Tag("unit")
class JavaCommandTest {
    @Test
    void requiredOptionsThenExtraOptionsThenClassPathThenMainAndArguments() {
        List<String> cmd = JavaCommand.main("a.Main").fastStart().args("x", "y").toList();
        assertEquals(JavaCommand.javaExecutable().toString(), cmd.getFirst());
        int cp = cmd.indexOf("-cp");
        assertEquals(JavaCommand.REQUIRED_OPTIONS, cmd.subList(1, 1 + JavaCommand.REQUIRED_OPTIONS.size()));
        assertTrue(cmd.subList(1, cp).containsAll(JavaCommand.FAST_START), cmd::toString);
        assertEquals(List.of("a.Main", "x", "y"), cmd.subList(cp + 2, cmd.size()));
        assertTrue(cmd.get(cp + 1).startsWith("/"), "class path entries are absolute: " + cmd.get(cp + 1));
    }

    @Test
    void aPrefixWrapsTheWholeCommandOutermostFirst() {
        JavaCommand plain = JavaCommand.main("a.Main");
        List<String> wrapped = plain.prefixedBy(List.of("ip", "netns", "exec", "h1")).prefixedBy(List.of("sudo")).toList();
        assertEquals(List.of("sudo", "ip", "netns", "exec", "h1"), wrapped.subList(0, 5));
        assertEquals(plain.toList(), wrapped.subList(5, wrapped.size()));
    }
}
