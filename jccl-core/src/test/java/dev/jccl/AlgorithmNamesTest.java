package dev.jccl;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the public API tells tools about JCCL_ALGO: the schedules' own table, read as the knob reads it. */
@Tag("unit")
class AlgorithmNamesTest {
    @Test
    void eachCollectiveListsTheAlgorithmsThatImplementItInTheTunersOrder() {
        assertEquals(List.of("ring", "tree", "halving_doubling", "recursive_doubling", "hierarchical"), Jccl.algorithmsFor("allReduce"));
        assertEquals(List.of("pairwise"), Jccl.algorithmsFor("allToAll"));
        assertEquals(List.of("ring", "tree"), Jccl.algorithmsFor("broadcast"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Jccl.algorithmsFor("allreduce"));
        assertTrue(e.getMessage().contains("unknown collective 'allreduce'") && e.getMessage().contains("allReduce"), e.getMessage());
    }

    @Test
    void aKnobValueReadsAsTheKnobReadsIt() {
        assertEquals(List.of("ring", "halving_doubling"), Jccl.parseAlgorithms(" Ring,halving-doubling,,ring"));
        assertEquals(List.of(), Jccl.parseAlgorithms(""));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Jccl.parseAlgorithms("ring,rign"));
        assertTrue(e.getMessage().startsWith("unknown algorithm 'rign'; expected one of ring, tree"), e.getMessage());
    }
}
