package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import kupl.RecursiveDoublingSteps.Step;
import org.junit.jupiter.api.Test;

/** The public view of the rd schedule names the rounds and peers the fence really uses. */
class RecursiveDoublingStepsTest
{
    @Test
    void shouldGiveSixProcessesPreTwoPairwiseAndPostRounds()
    {
        assertEquals(2, RecursiveDoublingSteps.rounds(6));
        // Core process 0 takes in extra process 4, exchanges with 1 then 2, and releases 4.
        assertEquals(List.of(new Step(0, 0, true, 4), new Step(0, 1, false, 1), new Step(0, 1, true, 1),
            new Step(0, 2, false, 2), new Step(0, 2, true, 2), new Step(0, 3, false, 4)),
            RecursiveDoublingSteps.of(6, 0));
        // Core process 3 has no extra partner.
        assertEquals(List.of(new Step(3, 1, false, 2), new Step(3, 1, true, 2), new Step(3, 2, false, 1),
            new Step(3, 2, true, 1)), RecursiveDoublingSteps.of(6, 3));
        // Extra process 5 hands in to 1, then waits for 1's release.
        assertEquals(List.of(new Step(5, 0, false, 1), new Step(5, 3, true, 1)), RecursiveDoublingSteps.of(6, 5));
    }

    @Test
    void shouldRejectRankOutsideProcesses()
    {
        final IllegalArgumentException error =
            assertThrows(IllegalArgumentException.class, () -> RecursiveDoublingSteps.of(6, 6));
        assertEquals("rank=6 is not a rank of 6 processes: give 0 to 5", error.getMessage());
    }
}
