package xdev.shmdev.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/**
 * The tree of MPJ Express 0.44's {@code MST_Reduce} written out as steps: the order that makes sums equal to
 * MPJ Express's bit for bit (the collectives' integration test compares whole results on 1-4 ranks).
 */
class MstReduceOrderTest
{
    @Test
    void shouldHaveNoStepOnOneRank()
    {
        assertEquals(0, MstReduceOrder.steps(1, 0).length);
    }

    @Test
    void shouldCombineTheHalvesAsMpjExpressDoesOnFourRanks()
    {
        // Root 0: [0,1] reduces to 0 (0 takes 1), [2,3] to its right end 3 (3 takes 2), then 0 takes 3.
        assertArrayEquals(new int[] {0, 1, 3, 2, 0, 3}, MstReduceOrder.steps(4, 0));
        // Root 3: [2,3] reduces to 3 (3 takes 2), [0,1] to its left end 0 (0 takes 1), then 3 takes 0.
        assertArrayEquals(new int[] {3, 2, 0, 1, 3, 0}, MstReduceOrder.steps(4, 3));
    }

    @Test
    void shouldSplitAnOddRangeAtItsMiddleRoundedDown()
    {
        // [0,2]: mid 1, so [0,1] (0 takes 1) and [2] alone; the root 2 is in the upper half: it takes 0.
        assertArrayEquals(new int[] {0, 1, 2, 0}, MstReduceOrder.steps(3, 2));
    }

    @Test
    void shouldCombineEveryRankExactlyOnceAsAChild()
    {
        for (int size = 1; size <= 130; size++)
        {
            for (final int root : new int[] {0, size / 2, size - 1})
            {
                final int[] steps = MstReduceOrder.steps(size, root);
                final boolean[] child = new boolean[size];
                for (int step = 0; step < steps.length; step += 2)
                {
                    assertFalse(child[steps[step + 1]], "rank " + steps[step + 1] + " combined twice");
                    assertFalse(child[steps[step]], "rank " + steps[step] + " used after being combined");
                    child[steps[step + 1]] = true;
                }
                for (int rank = 0; rank < size; rank++)
                {
                    assertEquals(rank != root, child[rank], "size " + size + " root " + root + " rank " + rank);
                }
            }
        }
    }
}
