package xdev.shmdev;

import java.io.IOException;

import kupl.KuplConfig;
import kupl.KuplException;
import kupl.ShmComm;
import kupl.ShmWin;
import kupl.bootstrap.BootstrapTimeouts;
import kupl.bootstrap.SocketOob;
import xdev.XDevException;

/**
 * Joins a rank to its {@code shm} job and leaves it: reads {@code MPI.Init}'s arguments, connects
 * to the launcher's out-of-band hub ({@link SocketOob}), creates the engine comm and allocates
 * the device's window (one segment per rank, laid out by {@link SegmentDescriptor}).
 *
 * @param rank   this process's rank.
 * @param conf   the job, as the launcher described it.
 * @param config the engine's settings.
 * @param oob    the out-of-band connection, closed when the rank leaves.
 * @param comm   the engine comm of the job's ranks.
 * @param window the device's window: every rank's doorbell and queue.
 */
record DeviceBootstrap(int rank, ShmConf conf, KuplConfig config, SocketOob oob, ShmComm comm, ShmWin window)
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
            return new DeviceBootstrap(ownRank, conf, config, oob, comm, window);
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

    private static void closeQuietly(final SocketOob oob)
    {
        if (oob != null)
        {
            try
            {
                oob.close();
            }
            catch (final IOException ignored)
            {
                // the hub is going away anyway
            }
        }
    }
}
