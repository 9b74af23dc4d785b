package mpjrun.agent;

import java.util.Arrays;
import java.util.UUID;

import mpjbuf.Buffer;
import mpjdev.Request;
import mpjdev.Status;
import xdev.Device;
import xdev.ProcessID;

/** A one-process device that can only be initialised: enough to see which device MPJ Express picked. */
public final class FakeDevice implements Device
{
    private final ProcessID id = new ProcessID(UUID.randomUUID());

    @Override
    public ProcessID[] init(final String[] args)
    {
        System.out.println("fake device initialised with " + Arrays.toString(args));
        return new ProcessID[] {id};
    }

    @Override
    public int getSendOverhead()
    {
        return 0;
    }

    @Override
    public int getRecvOverhead()
    {
        return 0;
    }

    @Override
    public ProcessID id()
    {
        return id;
    }

    @Override
    public void finish()
    {
        // nothing to release
    }

    @Override
    public Request isend(final Buffer buffer, final ProcessID destination, final int tag, final int context)
    {
        throw unsupported();
    }

    @Override
    public void send(final Buffer buffer, final ProcessID destination, final int tag, final int context)
    {
        throw unsupported();
    }

    @Override
    public Request issend(final Buffer buffer, final ProcessID destination, final int tag, final int context)
    {
        throw unsupported();
    }

    @Override
    public void ssend(final Buffer buffer, final ProcessID destination, final int tag, final int context)
    {
        throw unsupported();
    }

    @Override
    public Status recv(final Buffer buffer, final ProcessID source, final int tag, final int context)
    {
        throw unsupported();
    }

    @Override
    public Request irecv(final Buffer buffer, final ProcessID source, final int tag, final int context,
        final Status status)
    {
        throw unsupported();
    }

    @Override
    public Status probe(final ProcessID source, final int tag, final int context)
    {
        throw unsupported();
    }

    @Override
    public Status iprobe(final ProcessID source, final int tag, final int context)
    {
        throw unsupported();
    }

    @Override
    public Status iprobe(final ProcessID source, final ProcessID destination, final int tag, final int context)
    {
        throw unsupported();
    }

    @Override
    public Status iprobeAndFetch(final ProcessID source, final ProcessID destination, final int tag, final int context,
        final Buffer buffer)
    {
        throw unsupported();
    }

    @Override
    public Request peek()
    {
        throw unsupported();
    }

    private static UnsupportedOperationException unsupported()
    {
        return new UnsupportedOperationException("the fake device only initialises");
    }
}
