package dev.jccl.tags;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every test class of every module carries exactly one of the tags the build selects by: "unit",
 * "multiprocess" or "slow" (see the quick profile of the root pom). An untagged class would run
 * in the full build only, silently missing from ./run-tests -Pquick; a class with two would be
 * counted twice in the developer's mind. Reads the sources, since core's tests are not on this
 * module's class path as classes to load.
 *
 * <p>A class that declares tests must also have a name surefire's includes (root pom) pick up, or it
 * never runs at all, whatever its tag.
 */
@Tag("unit")
class EveryTestIsTaggedTest {
    private static final Set<String> TAGS = Set.of("unit", "multiprocess", "slow");
    private static final Pattern TEST_ANNOTATION = Pattern.compile("@(Test|ParameterizedTest|TestFactory|RepeatedTest|TestTemplate|ArchTest)\\b");
    private static final Pattern TAG = Pattern.compile("@Tag\\(\"([^\"]*)\"\\)");

    @Test
    void everyTestClassHasExactlyOneBuildTag() throws IOException {
        Path root = reactorRoot();
        List<Path> testClasses = new ArrayList<>();
        Set<String> modules = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path module : dirs.filter(d -> Files.isDirectory(d.resolve("src/test/java"))).toList()) {
                try (Stream<Path> files = Files.walk(module.resolve("src/test/java"))) {
                    for (Path f : files.filter(EveryTestIsTaggedTest::isTestClass).toList()) {
                        testClasses.add(f);
                        modules.add(module.getFileName().toString());
                        String problem = tagProblem(Files.readString(f));
                        if (problem == null) problem = nameProblem(f.getFileName().toString());
                        if (problem != null) wrong.add(root.relativize(f) + ": " + problem);
                    }
                }
            }
        }
        // Guards against scanning the wrong folder and passing on nothing.
        assertTrue(modules.containsAll(List.of("jccl-core", "jccl-testkit", "jccl-provider-ucx", "jccl-cli", "jccl-system-tests")),
                "test sources found only in " + modules + " under " + root);
        assertTrue(testClasses.size() > 50, "only " + testClasses.size() + " test classes found under " + root);
        assertTrue(wrong.isEmpty(), wrong.size() + " test classes without exactly one of @Tag " + TAGS + ":\n  "
                + String.join("\n  ", wrong));
    }

    /** A file surefire runs: named *Test.java by the house convention, or declaring test methods. */
    private static boolean isTestClass(Path f) {
        String name = f.getFileName().toString();
        if (!name.endsWith(".java")) return false;
        if (name.endsWith("Test.java")) return true;
        try {
            return TEST_ANNOTATION.matcher(Files.readString(f)).find();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Null when the source carries exactly one build tag, on its class; otherwise what is wrong. */
    static String tagProblem(String source) {
        List<String> found = new ArrayList<>();
        Matcher m = TAG.matcher(source);
        while (m.find()) found.add(m.group(1));
        List<String> build = found.stream().filter(TAGS::contains).toList();
        List<String> unknown = found.stream().filter(t -> !TAGS.contains(t)).toList();
        if (!unknown.isEmpty()) return "unknown tags " + unknown;
        if (build.size() != 1) return build.isEmpty() ? "no tag" : "tags " + build;
        int tagAt = source.indexOf("@Tag(\"" + build.getFirst() + "\")");
        Matcher cls = Pattern.compile("(?m)^(public\\s+|final\\s+|abstract\\s+)*class\\s").matcher(source);
        if (!cls.find() || cls.start() < tagAt) return "the tag is not on the top-level class";
        return null;
    }

    /** Null when surefire's includes (root pom) pick the class up; a class they miss never runs. */
    static String nameProblem(String fileName) {
        String name = fileName.replace(".java", "");
        boolean included = name.startsWith("Test") || name.endsWith("Test") || name.endsWith("Tests") || name.endsWith("TestCase")
                || name.endsWith("Properties");
        return included ? null : "declares tests but its name is not one surefire runs (*Test, *Properties)";
    }

    /** The folder of the root pom: surefire runs tests in their module's folder. */
    private static Path reactorRoot() throws IOException {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            Path pom = p.resolve("pom.xml");
            if (Files.isRegularFile(pom) && Files.readString(pom).contains("<artifactId>jccl-parent</artifactId>")
                    && Files.isDirectory(p.resolve("jccl-core"))) {
                return p;
            }
        }
        throw new AssertionError("no jccl root pom above " + here);
    }
}
