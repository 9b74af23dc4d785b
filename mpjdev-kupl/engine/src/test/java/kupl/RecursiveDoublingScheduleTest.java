package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The recursive-doubling fence's schedule, for every process count from 1 to 17 (powers of
 * two, one above, one below): who writes which flag, who waits for it, and, by running the
 * schedule in a small in-memory model, that it is a barrier.
 *
 * <p>The model: a flag holds the epoch of its last signal together with what the signaller
 * knew then (a vector clock: for each process, the highest fence it is known to have
 * entered). A wait completes once its flag holds at least the current epoch and merges the
 * flag's clock into the waiter's. A process may leave fence e only when its clock shows that
 * every process has entered fence e: that is the barrier property, and it is exactly what
 * makes every store before the fence visible after it (a release/acquire chain from every
 * process to every process).
 */
class RecursiveDoublingScheduleTest
{
    private static final int FENCES = 3;

    static IntStream processCounts()
    {
        return IntStream.rangeClosed(1, 17);
    }

    /** One step of one process's schedule. */
    private record Step(int rank, int index, boolean isWait, long offset, int peer)
    {
    }

    private static List<List<Step>> schedules(final int ranks)
    {
        final ControlDescriptor layout = new ControlDescriptor(ranks);
        final List<List<Step>> all = new ArrayList<>();
        for (int rank = 0; rank < ranks; rank++)
        {
            final RecursiveDoublingSchedule schedule = RecursiveDoublingSchedule.forRank(rank, layout);
            final List<Step> steps = new ArrayList<>();
            for (int i = 0; i < schedule.stepCount(); i++)
            {
                steps.add(new Step(rank, i, schedule.isWait(i), schedule.flagOffset(i), schedule.peer(i)));
            }
            all.add(steps);
        }
        return all;
    }

    @ParameterizedTest(name = "{0} processes")
    @MethodSource("processCounts")
    void shouldGiveEveryFlagSlotExactlyOneWriterAndOneReader(final int ranks)
    {
        final Map<Long, List<Integer>> writers = new HashMap<>();
        final Map<Long, List<Integer>> readers = new HashMap<>();
        for (final List<Step> steps : schedules(ranks))
        {
            for (final Step step : steps)
            {
                (step.isWait() ? readers : writers).computeIfAbsent(step.offset(), o -> new ArrayList<>()).add(step.rank());
            }
        }

        assertEquals(writers.keySet(), readers.keySet(), "every raised flag is waited for, every waited flag raised");
        writers.forEach((offset, who) -> assertEquals(1, who.size(), "writers of flag at " + offset + ": " + who));
        readers.forEach((offset, who) -> assertEquals(1, who.size(), "readers of flag at " + offset + ": " + who));
    }

    @ParameterizedTest(name = "{0} processes")
    @MethodSource("processCounts")
    void shouldWaitOnlyInOwnRowForSignalFromNamedPeer(final int ranks)
    {
        final ControlDescriptor layout = new ControlDescriptor(ranks);
        final List<List<Step>> schedules = schedules(ranks);
        for (final List<Step> steps : schedules)
        {
            for (final Step step : steps)
            {
                final int owner = step.isWait() ? step.rank() : step.peer();
                final int writer = step.isWait() ? step.peer() : step.rank();
                assertTrue(owner != writer, "a process never signals itself: " + step);
                assertTrue(step.offset() >= layout.rdFlagOffset(owner, 0) &&
                    step.offset() <= layout.rdFlagOffset(owner, layout.rdSlotsPerRank() - 1),
                    "flag of " + step + " lies in the row of rank " + owner);
                assertEquals(0, step.offset() % ControlDescriptor.WORD_PAD_BYTES, "own cache-line pair: " + step);
                assertTrue(step.offset() + Long.BYTES <= layout.lengthBytes(), "inside the control object: " + step);
                // The other side of this step: on the writer for a wait, on the owner for a signal.
                final int other = step.isWait() ? writer : owner;
                final Step counterpart = new Step(other, -1, !step.isWait(), step.offset(), step.rank());
                assertTrue(schedules.get(counterpart.rank()).stream().anyMatch(s -> s.isWait() == counterpart.isWait() &&
                    s.offset() == counterpart.offset() && s.peer() == counterpart.peer()),
                    step + " has no matching " + (step.isWait() ? "signal" : "wait") + " on rank " + counterpart.rank());
            }
        }
    }

    @ParameterizedTest(name = "{0} processes")
    @MethodSource("processCounts")
    void shouldTakeLogarithmicNumberOfSteps(final int ranks)
    {
        final int rounds = 31 - Integer.numberOfLeadingZeros(ranks);
        final List<List<Step>> schedules = schedules(ranks);
        for (int rank = 0; rank < ranks; rank++)
        {
            final List<Step> steps = schedules.get(rank);
            // log2(P) exchanges of a signal and a wait, plus the pre and post round.
            assertTrue(steps.size() <= 2 * rounds + 2, "steps of rank " + rank + ": " + steps);
            assertTrue(ranks == 1 || steps.stream().anyMatch(Step::isWait), "every process waits for someone");
        }
        assertEquals(rounds + 2, RecursiveDoublingSchedule.slotCount(ranks));
    }

    @ParameterizedTest(name = "{0} processes")
    @MethodSource("processCounts")
    void shouldBeBarrierWhenRunInLockstepRounds(final int ranks)
    {
        final Simulation simulation = new Simulation(schedules(ranks), ranks);
        int rounds = 0;
        while (!simulation.finished())
        {
            // Synchronous model: what is signalled in a round is seen from the next round on.
            final List<Runnable> effects = new ArrayList<>();
            boolean progress = false;
            for (int rank = 0; rank < ranks; rank++)
            {
                if (simulation.canStep(rank))
                {
                    final int r = rank;
                    effects.add(() -> simulation.step(r));
                    progress = true;
                }
            }
            if (!progress)
            {
                fail("deadlock after " + rounds + " rounds: " + simulation);
            }
            effects.forEach(Runnable::run);
            rounds++;
        }
        final int log2 = 32 - Integer.numberOfLeadingZeros(ranks - 1);
        assertTrue(rounds <= FENCES * (2 * log2 + 2), ranks + " processes took " + rounds + " rounds for " + FENCES +
            " fences");
    }

    @ParameterizedTest(name = "{0} processes")
    @MethodSource("processCounts")
    void shouldBeBarrierUnderEveryInterleavingTried(final int ranks)
    {
        for (int seed = 0; seed < 200; seed++)
        {
            final Random random = new Random(seed);
            final Simulation simulation = new Simulation(schedules(ranks), ranks);
            while (!simulation.finished())
            {
                final int[] ready = IntStream.range(0, ranks).filter(simulation::canStep).toArray();
                if (ready.length == 0)
                {
                    fail("deadlock with seed " + seed + ": " + simulation);
                }
                simulation.step(ready[random.nextInt(ready.length)]);
            }
        }
    }

    /**
     * {@link #FENCES} consecutive fences of every process over shared flags. Each process can
     * run ahead into its next fence while others are still leaving the previous one, as real
     * processes do.
     */
    private static final class Simulation
    {
        private final List<List<Step>> schedules;
        private final int ranks;
        private final Map<Long, Long> flagEpochs = new HashMap<>();
        private final Map<Long, long[]> flagClocks = new HashMap<>();
        private final int[] fence;
        private final int[] next;
        private final long[][] clocks;
        private final Set<Long> signalledThisFence = new HashSet<>();

        Simulation(final List<List<Step>> schedules, final int ranks)
        {
            this.schedules = schedules;
            this.ranks = ranks;
            this.fence = new int[ranks];
            this.next = new int[ranks];
            this.clocks = new long[ranks][ranks];
            for (int rank = 0; rank < ranks; rank++)
            {
                enter(rank, 1);
            }
        }

        boolean finished()
        {
            return Arrays.stream(fence).allMatch(f -> f > FENCES);
        }

        boolean canStep(final int rank)
        {
            if (fence[rank] > FENCES)
            {
                return false;
            }
            final Step step = schedules.get(rank).get(next[rank]);
            return !step.isWait() || flagEpochs.getOrDefault(step.offset(), 0L) >= fence[rank];
        }

        void step(final int rank)
        {
            final Step step = schedules.get(rank).get(next[rank]);
            final long epoch = fence[rank];
            if (step.isWait())
            {
                final long[] seen = flagClocks.get(step.offset());
                for (int q = 0; q < ranks; q++)
                {
                    clocks[rank][q] = Math.max(clocks[rank][q], seen[q]);
                }
            }
            else
            {
                final long previous = flagEpochs.getOrDefault(step.offset(), 0L);
                assertTrue(previous < epoch, "flag at " + step.offset() + " raised twice in fence " + epoch + " by " +
                    step + " (it holds " + previous + ")");
                assertTrue(signalledThisFence.add(step.offset() * 64 + epoch), "second signal of " + step);
                flagEpochs.put(step.offset(), epoch);
                flagClocks.put(step.offset(), clocks[rank].clone());
            }
            next[rank]++;
            if (next[rank] == schedules.get(rank).size())
            {
                // Leaving fence `epoch`: everybody must be known to have entered it.
                for (int q = 0; q < ranks; q++)
                {
                    assertTrue(clocks[rank][q] >= epoch, "rank " + rank + " left fence " + epoch +
                        " without hearing that rank " + q + " entered it; clock " + Arrays.toString(clocks[rank]));
                }
                enter(rank, (int)epoch + 1);
            }
        }

        private void enter(final int rank, final int epoch)
        {
            fence[rank] = epoch;
            next[rank] = 0;
            clocks[rank][rank] = epoch;
            if (epoch <= FENCES && schedules.get(rank).isEmpty())
            {
                // A single process has nothing to wait for.
                enter(rank, epoch + 1);
            }
        }

        @Override
        public String toString()
        {
            return "fences " + Arrays.toString(fence) + ", next steps " + Arrays.toString(next) + ", flags " + flagEpochs;
        }
    }
}
