package kupl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ControlDescriptor}: every word 8-byte aligned, every contended word on its own pair
 * of cache lines, the regions back to back without overlap, the client area at the end with
 * its documented size, and the header checked on open.
 */
class ControlDescriptorTest
{
    private static final long PAIR = ControlDescriptor.WORD_PAD_BYTES;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 7, 8, 9, 64})
    void shouldGiveEveryContendedWordTwoCacheLinesOfItsOwn(final int ranks)
    {
        final ControlDescriptor layout = new ControlDescriptor(ranks);
        final List<Long> contended = new ArrayList<>(List.of(ControlDescriptor.ARRIVALS_OFFSET,
            ControlDescriptor.LINEAR_RELEASE_OFFSET, ControlDescriptor.FREE_ARRIVALS_OFFSET));
        for (int rank = 0; rank < ranks; rank++)
        {
            for (int slot = 0; slot < layout.rdSlotsPerRank(); slot++)
            {
                contended.add(layout.rdFlagOffset(rank, slot));
            }
        }

        for (int i = 0; i < contended.size(); i++)
        {
            assertEquals(0, contended.get(i) % PAIR, "word " + i + " starts a 128-byte pair");
            if (i > 0)
            {
                assertEquals(PAIR, contended.get(i) - contended.get(i - 1), "word " + i + " follows the last pair");
            }
        }
        assertTrue(ControlDescriptor.ARRIVALS_OFFSET >= PAIR, "the header has a pair of its own");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8, 17})
    void shouldLayPeerRowsAfterTheRdFlagsEachPaddedToAPair(final int ranks)
    {
        final ControlDescriptor layout = new ControlDescriptor(ranks);
        final long rdEnd = layout.rdFlagOffset(ranks - 1, layout.rdSlotsPerRank() - 1) + PAIR;
        final long rowBytes = ControlDescriptor.align((long)ranks * Long.BYTES, PAIR);

        assertAll(
            () -> assertEquals(rdEnd, layout.peerFlagOffset(0, 0)),
            () -> assertEquals(0, layout.peerFlagOffset(0, 0) % PAIR),
            () -> assertEquals((ranks - 1L) * rowBytes, layout.peerFlagOffset(ranks - 1, 0) - layout.peerFlagOffset(0, 0)),
            () -> assertEquals(Long.BYTES * (ranks - 1L),
                layout.peerFlagOffset(0, ranks - 1) - layout.peerFlagOffset(0, 0)),
            () -> assertEquals(layout.peerFlagOffset(0, 0) + ranks * rowBytes, layout.clientAreaOffset()));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5, 64})
    void shouldEndWithTheClientAreaOfOnePairPerRankPlusOneAndTwoPaddedRowsPerRank(final int ranks)
    {
        final ControlDescriptor layout = new ControlDescriptor(ranks);
        final long rowBytes = (ranks * (long)Long.BYTES + PAIR - 1) / PAIR * PAIR;

        assertAll(
            () -> assertEquals((ranks + 1L) * PAIR + 2L * ranks * rowBytes, ControlDescriptor.clientAreaBytes(ranks)),
            () -> assertEquals(0, layout.clientAreaOffset() % PAIR),
            () -> assertEquals(layout.clientAreaOffset() + ControlDescriptor.clientAreaBytes(ranks),
                layout.lengthBytes()));
    }

    @Test
    void shouldKeepTheHeaderWordsInTheFirstPairAndAligned()
    {
        final long[] header = {ControlDescriptor.MAGIC_OFFSET, ControlDescriptor.RANKS_OFFSET,
            ControlDescriptor.DEAD_RANK_OFFSET, ControlDescriptor.FIRST_FREER_OFFSET};
        for (int i = 0; i < header.length; i++)
        {
            assertEquals(i * (long)Long.BYTES, header[i], "header word " + i);
        }
        assertTrue(header[header.length - 1] + Long.BYTES <= ControlDescriptor.ARRIVALS_OFFSET);
    }

    @Test
    void shouldVerifyWhatInitialiseWroteAndRefuseAnotherShape()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final ControlDescriptor four = new ControlDescriptor(4);
            final MemorySegment memory = arena.allocate(four.lengthBytes(), Long.BYTES);
            final SharedWords words = new SharedWords(memory);
            four.initialise(words);

            four.verify(words);
            final KuplException e = assertThrows(KuplException.class, () -> new ControlDescriptor(5).verify(words));

            assertTrue(e.getMessage().contains("expected 5 ranks"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseAWindowWithoutRanks()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ControlDescriptor(0));

        assertEquals("ranks=0", e.getMessage());
    }
}
