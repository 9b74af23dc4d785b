package xdev.shmdev;

import java.io.IOException;

import kupl.KuplConfig;
import kupl.KuplException;
import kupl.OobCallbacks;
import kupl.ShmComm;
import kupl.ShmWin;
import kupl.bootstrap.BootstrapTimeouts;
import kupl.bootstrap.SocketOob;
import xdev.XDevException;

/**
 * Joins a rank to the ranks it shares memory with and leaves them: creates the engine comm and
 * allocates the device's window (one segment per rank, laid out by {@link SegmentDescriptor}). On one
 * node ({@link #join}) that is the whole job, found through {@code MPI.Init}'s arguments and the
 * launcher's out-of-band hub ({@link SocketOob}); in a job that spans nodes ({@link #joinNode}) it is
 * the ranks of this node, found through the network device.
 *
 * @param rank   this process's rank among them.
 * @param size   how many they are.
 * @param jobId  the job's identity.
 * @param job    the job in words, for errors.
 * @param config the engine's settings.
 * @param oob    the out-of-band connection, closed when the rank leaves (null: nothing to close).
 * @param comm   the engine comm of these ranks.
 * @param window the device's window: every rank's doorbell and queue.
 */
record DeviceBootstrap(int rank, int size, long jobId, String job, KuplConfig config, AutoCloseable oob, ShmComm comm,
    ShmWin window)
{
    /**
     * Joins the job: {@code args} are {@code MPI.Init}'s, {@code {rank, conf, "shm", ...}}, with
     * {@code conf} as {@link ShmConf} writes it. Collective over the job's ranks.
     *
     * @param queueCapacity bytes of data of each rank's queue.
     */
    static DeviceBootstrap join(final String[] args, final int queueCapacity)
    {
        if (args == null || args.length < 3)
        {
            throw new XDevException("shm device: MPI.Init needs {rank, conf, \"shm\", ...}, got " +
                (args == null ? "null" : args.length + " arguments"));
        }
        final int ownRank;
        final ShmConf conf;
        final long segmentBytes;
        try
        {
            ownRank = Integer.parseInt(args[0].trim());
            conf = ShmConf.parse(args[1]);
            segmentBytes = new SegmentDescriptor(conf.size(), queueCapacity).lengthBytes();
        }
        catch (final IllegalArgumentException e)
        {
            throw new XDevException("shm device: bad MPI.Init arguments (rank '" + args[0] + "', conf '" + args[1] +
                "'): " + e.getMessage());
        }
        if (ownRank < 0 || ownRank >= conf.size())
        {
            throw new XDevException("shm device: rank=" + ownRank + " is outside the job of " + conf.size() +
                " ranks (0-" + (conf.size() - 1) + ")");
        }
        SocketOob oob = null;
        try
        {
            final KuplConfig config = KuplConfig.fromEnvironment();
            oob = SocketOob.connect(conf.socket(), conf.jobId(), ownRank, conf.size(),
                BootstrapTimeouts.fromEnvironment());
            final ShmComm comm = ShmComm.create(conf.size(), ownRank, ProcessHandle.current().pid(), oob, null,
                config);
            final ShmWin window = comm.allocate(segmentBytes, false);
            return new DeviceBootstrap(ownRank, conf.size(), conf.jobId(), conf.toString(), config, oob, comm, window);
        }
        catch (final IOException | KuplException e)
        {
            closeQuietly(oob);
            final XDevException error = new XDevException("shm device: rank " + ownRank + " could not join the job (" +
                conf + "): " + e.getMessage());
            // The cause tells the launcher whether another rank is to blame (mpjrun.ShmRankMain's exit status).
            error.initCause(e);
            throw error;
        }
    }

    /**
     * Joins the ranks of this node in a job that spans nodes: collective over them, the out-of-band steps
     * going through {@code oob} (the network device's messages, see {@link NodeOob}).
     *
     * @param rank  this process's rank among the node's ranks.
     * @param size  the node's ranks.
     * @param jobId the job's identity, equal on every rank of the node.
     * @param job   the node's ranks in words, for errors.
     */
    static DeviceBootstrap joinNode(final int rank, final int size, final long jobId, final String job,
        final OobCallbacks oob, final int queueCapacity)
    {
        try
        {
            final KuplConfig config = KuplConfig.fromEnvironment();
            final ShmComm comm = ShmComm.create(size, rank, ProcessHandle.current().pid(), oob, null, config);
            final ShmWin window = comm.allocate(new SegmentDescriptor(size, queueCapacity).lengthBytes(), false);
            return new DeviceBootstrap(rank, size, jobId, job, config, null, comm, window);
        }
        catch (final KuplException e)
        {
            final XDevException error = new XDevException("shm device: could not share memory with " + job + ": " +
                e.getMessage());
            error.initCause(e);
            throw error;
        }
    }

    /** Leaves the job: frees the window and the comm together with the other ranks (collective). */
    void leave()
    {
        try
        {
            window.close();
            comm.close();
        }
        catch (final KuplException e)
        {
            throw new XDevException("shm device: rank " + rank + " could not finish: " + e.getMessage());
        }
        finally
        {
            closeQuietly(oob);
        }
    }

    private static void closeQuietly(final AutoCloseable oob)
    {
        if (oob != null)
        {
            try
            {
                oob.close();
            }
            catch (final Exception ignored)
            {
                // the hub is going away anyway
            }
        }
    }
}
