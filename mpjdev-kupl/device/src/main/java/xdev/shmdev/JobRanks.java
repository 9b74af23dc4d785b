package xdev.shmdev;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;

/**
 * The job's ranks as MPJ Express names them: one {@code ProcessID} per rank, built from the
 * job's id (so that two jobs never share one), and the checks that turn a caller's
 * {@code ProcessID} into a rank with a clear error.
 */
final class JobRanks
{
    private final ProcessID[] ids;
    private final Map<UUID, Integer> ranksById = new HashMap<>();

    /** @param jobId the job's identity ({@link ShmConf#jobId()}). */
    JobRanks(final long jobId, final int size)
    {
        this(idsOf(jobId, size));
    }

    /**
     * Ranks named by given ids: in a job that spans nodes ({@link ClusterShmDevice}), the ranks of this node
     * keep the ids the whole job knows them by (niodev's), so that a status names its source the same way on
     * either path.
     */
    JobRanks(final ProcessID[] ids)
    {
        this.ids = ids.clone();
        for (int rank = 0; rank < ids.length; rank++)
        {
            ranksById.put(ids[rank].uuid(), rank);
        }
    }

    private static ProcessID[] idsOf(final long jobId, final int size)
    {
        final ProcessID[] ids = new ProcessID[size];
        for (int rank = 0; rank < size; rank++)
        {
            ids[rank] = new ProcessID(new UUID(jobId, rank));
        }
        return ids;
    }

    int size()
    {
        return ids.length;
    }

    ProcessID id(final int rank)
    {
        return ids[rank];
    }

    UUID uuid(final int rank)
    {
        return ids[rank].uuid();
    }

    ProcessID[] ids()
    {
        return ids.clone();
    }

    /**
     * The rank of {@code id}.
     *
     * @param operation the caller, for the error ("send").
     * @throws XDevException if it is not a rank of this job.
     */
    int rankOf(final ProcessID id, final String operation)
    {
        final Integer rank = id == null ? null : ranksById.get(id.uuid());
        if (rank == null)
        {
            throw new XDevException("shm device: " + operation + " names process " + (id == null ? null : id.uuid()) +
                ", which is not a rank of this job of " + ids.length);
        }
        return rank;
    }

    /** As {@link #rankOf}, with {@code Device.ANY_SRC} as {@link RecvRequest#ANY}. */
    int sourceRank(final ProcessID id, final String operation)
    {
        if (id != null && Device.ANY_SRC.uuid().equals(id.uuid()))
        {
            return RecvRequest.ANY;
        }
        return rankOf(id, operation);
    }
}
