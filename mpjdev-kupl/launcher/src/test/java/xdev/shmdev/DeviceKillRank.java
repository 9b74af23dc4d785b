package xdev.shmdev;

import java.nio.file.Path;

import kupl.bootstrap.SocketOob;
import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;

/**
 * A rank of a {@code mpjrun.process.EngineJob} that uses the device directly: prints {@code ready},
 * then every rank but 1 waits for a message from any rank that never comes. When rank 1 is
 * killed, the others must fail naming it (exit status {@value #DEATH_NOTICED}).
 */
final class DeviceKillRank
{
    static final int DEATH_NOTICED = 3;

    private DeviceKillRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int rank = Integer.getInteger(SocketOob.RANK_PROPERTY);
        final ShmConf conf = new ShmConf(Path.of(System.getProperty(SocketOob.SOCKET_PROPERTY)),
            Integer.getInteger(SocketOob.SIZE_PROPERTY), Long.parseLong(System.getProperty(SocketOob.JOB_PROPERTY)));
        final ShmDevice device = new ShmDevice();
        final ProcessID[] ids = device.init(new String[] {Integer.toString(rank), conf.toString(), "shm"});
        System.out.println("ready");
        System.out.flush();
        if (rank == 1)
        {
            Thread.sleep(60_000);
            return;
        }
        try
        {
            device.recv(Messages.empty(64), Device.ANY_SRC, Device.ANY_TAG, 1);
            System.out.println("received a message nobody sent");
        }
        catch (final XDevException e)
        {
            System.out.println("failed: " + e.getMessage());
            System.exit(DEATH_NOTICED);
        }
        System.out.println(ids.length);
    }
}
