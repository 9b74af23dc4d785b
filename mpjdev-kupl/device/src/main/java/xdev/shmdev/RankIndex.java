package xdev.shmdev;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;

/** The world rank of each process id of a job that spans nodes (niodev's ids), with clear errors. */
final class RankIndex
{
    private final Map<UUID, Integer> ranks = new HashMap<>();
    private final int size;

    RankIndex(final ProcessID[] ids)
    {
        size = ids.length;
        for (int rank = 0; rank < ids.length; rank++)
        {
            ranks.put(ids[rank].uuid(), rank);
        }
    }

    /** The rank of {@code id}, or -1 if it is not one of the job's. */
    int rankOf(final UUID id)
    {
        final Integer rank = id == null ? null : ranks.get(id);
        return rank == null ? -1 : rank;
    }

    /**
     * The rank {@code id} names, or {@link CrossNodeRequest#ANY} for {@code Device.ANY_SRC} where
     * {@code anyAllowed}.
     *
     * @param operation the caller, for the error ("send").
     * @throws XDevException if it is not a rank of this job.
     */
    int rankOf(final ProcessID id, final String operation, final boolean anyAllowed)
    {
        if (anyAllowed && id != null && Device.ANY_SRC.uuid().equals(id.uuid()))
        {
            return CrossNodeRequest.ANY;
        }
        final int rank = id == null ? -1 : rankOf(id.uuid());
        if (rank < 0)
        {
            throw new XDevException("shm device: " + operation + " names process " + (id == null ? null : id.uuid()) +
                ", which is not a rank of this job of " + size);
        }
        return rank;
    }
}
