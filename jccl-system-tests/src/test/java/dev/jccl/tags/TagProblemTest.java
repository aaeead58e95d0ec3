package dev.jccl.tags;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The guard's reading of one source: it must be able to fail. */
@Tag("unit")
class TagProblemTest {
    @Test
    void oneBuildTagOnTheClassPasses() {
        assertNull(EveryTestIsTaggedTest.tagProblem("@Timeout(5)\n@Tag(\"unit\")\nclass ATest {}\n"));
    }

    @Test
    void missingTwoUnknownOrMisplacedTagsAreNamed() {
        assertEquals("no tag", EveryTestIsTaggedTest.tagProblem("class ATest {\n @Test void t() {}\n}\n"));
        assertEquals("tags [unit, slow]", EveryTestIsTaggedTest.tagProblem("@Tag(\"unit\")\n@Tag(\"slow\")\nclass ATest {}\n"));
        assertEquals("unknown tags [fast]", EveryTestIsTaggedTest.tagProblem("@Tag(\"fast\")\nclass ATest {}\n"));
        assertEquals("the tag is not on the top-level class",
                EveryTestIsTaggedTest.tagProblem("class ATest {\n @Tag(\"slow\") @Test void t() {}\n}\n"));
    }

    @Test
    void aClassSurefireWouldNotRunIsNamed() {
        assertNull(EveryTestIsTaggedTest.nameProblem("StoreDecoderProperties.java"));
        assertNull(EveryTestIsTaggedTest.nameProblem("TcpAuthTest.java"));
        assertEquals("declares tests but its name is not one surefire runs (*Test, *Properties)",
                EveryTestIsTaggedTest.nameProblem("StoreFuzz.java"));
    }
}
