package kupl;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Out-of-band callbacks for a sub-group of a job's processes, built on the job's callbacks
 * for all of them ({@code world}, e.g. {@link kupl.bootstrap.SocketOob}, which serves one group
 * only). Every world allgather carries one fixed-size frame per process: a member's frame
 * holds its contribution to the sub-group's allgather, a non-member's says it has nothing.
 * Members pick their group's frames, in group order.
 *
 * <p>Because the world allgather needs every process, sub-group work is done in
 * <em>phases</em> that every process of the world enters together ({@link #phase}): the
 * members run their collective calls, the other processes keep the world allgathers going,
 * and the phase ends for everybody in the first round in which every process says it is done.
 */
final class SubGroupOob
{
    /** Largest contribution a sub-group allgather may carry (the engine's records are below 1 KiB). */
    static final int PAYLOAD_MAX_BYTES = 2048;

    private static final int DATA = 1;
    private static final int DONE = 2;
    private static final int FRAME_BYTES = 8 + PAYLOAD_MAX_BYTES;

    /** Work done by the members of a group during a phase. */
    @FunctionalInterface
    interface GroupWork<T>
    {
        T run(int groupRank) throws Exception;
    }

    private final OobCallbacks world;
    private final int worldSize;
    private final int worldRank;

    SubGroupOob(final OobCallbacks world, final int worldSize, final int worldRank)
    {
        this.world = world;
        this.worldSize = worldSize;
        this.worldRank = worldRank;
    }

    /** The sub-group of the given world ranks (ascending); group rank i is {@code members[i]}. */
    Group group(final int... members)
    {
        return new Group(members.clone());
    }

    /**
     * Runs {@code work} on the members of {@code group}; every process of the world must call
     * this together. Returns the work's result on members, null on the others.
     */
    <T> T phase(final Group group, final GroupWork<T> work) throws Exception
    {
        try
        {
            return group.isMember() ? work.run(group.groupRank()) : null;
        }
        finally
        {
            drain();
        }
    }

    private void drain()
    {
        final byte[] frame = ByteBuffer.allocate(FRAME_BYTES).putInt(DONE).putInt(0).array();
        final byte[] all = new byte[FRAME_BYTES * worldSize];
        while (true)
        {
            if (world.oobAllgather(frame, all, FRAME_BYTES, null, ShmDatatype.CHAR) != Kupl.KUPL_OK)
            {
                throw new IllegalStateException("world allgather failed while rank " + worldRank + " ended a phase");
            }
            boolean allDone = true;
            for (int peer = 0; peer < worldSize; peer++)
            {
                allDone &= ByteBuffer.wrap(all, peer * FRAME_BYTES, 4).getInt() == DONE;
            }
            if (allDone)
            {
                return;
            }
        }
    }

    /** The callbacks of one sub-group; usable by its members inside a {@link #phase} of that group. */
    final class Group implements OobCallbacks
    {
        private final int[] members;

        private Group(final int[] members)
        {
            this.members = members;
        }

        boolean isMember()
        {
            return groupRank() >= 0;
        }

        /** This process's rank in the group, or -1. */
        int groupRank()
        {
            final int at = Arrays.binarySearch(members, worldRank);
            return at >= 0 ? at : -1;
        }

        int size()
        {
            return members.length;
        }

        @Override
        public int oobAllgather(final byte[] sendbuf, final byte[] recvbuf, final int count, final Object group,
            final ShmDatatype datatype)
        {
            final int bytes = count * datatype.sizeBytes();
            if (!isMember() || bytes > PAYLOAD_MAX_BYTES || sendbuf.length < bytes ||
                recvbuf.length < bytes * members.length)
            {
                return Kupl.KUPL_ERROR;
            }
            final byte[] frame = ByteBuffer.allocate(FRAME_BYTES).putInt(DATA).putInt(bytes).put(sendbuf, 0, bytes).array();
            final byte[] all = new byte[FRAME_BYTES * worldSize];
            if (world.oobAllgather(frame, all, FRAME_BYTES, null, ShmDatatype.CHAR) != Kupl.KUPL_OK)
            {
                return Kupl.KUPL_ERROR;
            }
            for (int i = 0; i < members.length; i++)
            {
                final ByteBuffer peer = ByteBuffer.wrap(all, members[i] * FRAME_BYTES, FRAME_BYTES);
                if (peer.getInt() != DATA || peer.getInt() != bytes)
                {
                    // A member is out of step (done, or a different call): fail rather than mix calls.
                    return Kupl.KUPL_ERROR;
                }
                peer.get(recvbuf, i * bytes, bytes);
            }
            return Kupl.KUPL_OK;
        }

        @Override
        public int oobBarrier(final Object group)
        {
            return oobAllgather(new byte[0], new byte[0], 0, group, ShmDatatype.CHAR);
        }

        @Override
        public String toString()
        {
            return "group " + Arrays.toString(members);
        }
    }
}
