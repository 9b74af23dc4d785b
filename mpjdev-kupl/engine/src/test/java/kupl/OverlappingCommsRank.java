package kupl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import kupl.bootstrap.SocketOob;

/**
 * One process of a 4-process job with three comms over overlapping process sets: all four,
 * {0,1} and {1,2,3}, the sub-comms built over their own out-of-band sub-groups
 * ({@link SubGroupOob}). One window per comm; for several rounds each member writes its
 * segment of each of its windows and fences it a different number of times per window
 * (1, 2 and 3), then checks every member's segment. A fence of one comm that released or
 * disturbed another's would show as a stale value or a wrong fence count. Prints
 * "overlapping comms ok" on success, exits 1 otherwise.
 */
public final class OverlappingCommsRank
{
    private static final int ROUNDS = 30;

    private record Member(int id, String name, int[] worldRanks, ShmComm comm, ShmWin win, int fencesPerRound)
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final long pid = ProcessHandle.current().pid();
        try (SocketOob oob = SocketOob.fromSystemProperties())
        {
            final int worldRank = oob.rank();
            if (oob.size() != 4)
            {
                fail("needs 4 processes, has " + oob.size());
            }
            final SubGroupOob groups = new SubGroupOob(oob, oob.size(), worldRank);
            final SubGroupOob.Group pair = groups.group(0, 1);
            final SubGroupOob.Group triple = groups.group(1, 2, 3);

            // All four directly on the job's callbacks; the sub-comms in phases of the whole job.
            final ShmComm all = ShmComm.create(4, worldRank, pid, oob, null);
            final ShmComm pairComm = groups.phase(pair, r -> ShmComm.create(2, r, pid, pair, null));
            final ShmComm tripleComm = groups.phase(triple, r -> ShmComm.create(3, r, pid, triple, null));

            final ShmWin allWin = all.allocate(8L * (worldRank + 1), true);
            final ShmWin pairWin = groups.phase(pair, r -> pairComm.allocate(24, false));
            final ShmWin tripleWin = groups.phase(triple, r -> tripleComm.allocate(8L * (3 - r), false));

            // Same order on every process, so the per-comm fences cannot wait on each other in a cycle.
            final List<Member> mine = new ArrayList<>();
            mine.add(new Member(0, "all", new int[] {0, 1, 2, 3}, all, allWin, 1));
            if (pairComm != null)
            {
                mine.add(new Member(1, "{0,1}", new int[] {0, 1}, pairComm, pairWin, 2));
            }
            if (tripleComm != null)
            {
                mine.add(new Member(2, "{1,2,3}", new int[] {1, 2, 3}, tripleComm, tripleWin, 3));
            }
            for (final Member member : mine)
            {
                System.out.println("comm " + member.name() + ": rank " + member.comm().rank() + " of " +
                    member.comm().size());
            }

            for (int round = 1; round <= ROUNDS; round++)
            {
                for (final Member member : mine)
                {
                    final MemorySegment own = member.win().base();
                    for (long i = 0; i < own.byteSize() / 8; i++)
                    {
                        own.setAtIndex(ValueLayout.JAVA_LONG, i, value(member.id(), worldRank, round, i));
                    }
                    for (int f = 0; f < member.fencesPerRound(); f++)
                    {
                        member.win().fence();
                    }
                    for (int peer = 0; peer < member.comm().size(); peer++)
                    {
                        final MemorySegment segment = member.win().segment(peer);
                        for (long i = 0; i < segment.byteSize() / 8; i++)
                        {
                            final long expected = value(member.id(), member.worldRanks()[peer], round, i);
                            final long seen = segment.getAtIndex(ValueLayout.JAVA_LONG, i);
                            if (seen != expected)
                            {
                                fail("round " + round + ", comm " + member.name() + ": rank " + peer + " word " + i +
                                    " is " + Long.toHexString(seen) + ", expected " + Long.toHexString(expected));
                            }
                        }
                    }
                    // Nobody overwrites for the next round before every member has checked.
                    member.win().fence();
                }
            }
            for (final Member member : mine)
            {
                final long expected = (member.fencesPerRound() + 1L) * ROUNDS;
                if (member.win().fenceCount() != expected)
                {
                    fail("comm " + member.name() + ": " + member.win().fenceCount() + " fences, expected " + expected);
                }
                member.win().close();
            }
            groups.phase(triple, r ->
            {
                tripleComm.close();
                return null;
            });
            groups.phase(pair, r ->
            {
                pairComm.close();
                return null;
            });
            all.close();
        }
        System.out.println("overlapping comms ok");
    }

    /** The value a member writes: which comm, who, when. */
    private static long value(final int comm, final int worldRank, final int round, final long index)
    {
        return ((long)comm << 56) | ((long)worldRank << 48) | ((long)round << 24) | index;
    }

    private static void fail(final String why)
    {
        System.out.println(why);
        System.exit(1);
    }
}
