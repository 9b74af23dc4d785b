package mpjrun.agent.progress;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The ways a program leaves a send pending while it goes on into another MPI call, one per protocol of the shm
 * device: each starts its messages to a partner, which receives them with blocking receives, and completes
 * them afterwards. Every element carries the cell, the sender and its index, and the receiver checks each.
 */
enum PendingSend
{
    /**
     * Eager messages (each below the device's 128 KiB eager limit) whose records together overflow the
     * receiver's 256 KiB queue: what does not fit waits in the sender for room.
     */
    EAGER_BURST(4, 25_000),
    /** One 1 MiB message: rendezvous, its bytes pipelined through the receiver's staging ring (or read directly). */
    RENDEZVOUS(1, 256 * 1024),
    /** MPJ Express's buffered send of 400 KB: it returns at once and leaves a rendezvous send pending. */
    BSEND(1, 100_000),
    /** Synchronous sends, one eager (it completes on the receiver's acknowledgement), one rendezvous. */
    ISSEND(2, -1);

    /** Bytes MPI.Buffer_attach must give for BSEND's message and MPJ Express's overhead. */
    static final int BSEND_BUFFER_BYTES = 4 * 1024 * 1024;
    private static final int TAG = 30;
    private static final int[] ISSEND_LENGTHS = {16, 75_000};

    private final int messages;
    private final int length;

    PendingSend(final int messages, final int length)
    {
        this.messages = messages;
        this.length = length;
    }

    private int length(final int message)
    {
        return this == ISSEND ? ISSEND_LENGTHS[message] : length;
    }

    /** Starts this kind's messages to {@code partner}; what it returns completes them. */
    List<Request> start(final Intracomm comm, final int cell, final int partner) throws MPIException
    {
        final List<Request> requests = new ArrayList<>();
        for (int message = 0; message < messages; message++)
        {
            final int[] data = pattern(cell, comm.Rank(), message, length(message));
            switch (this)
            {
                case BSEND -> comm.Bsend(data, 0, data.length, MPI.INT, partner, TAG);
                case ISSEND -> requests.add(comm.Issend(data, 0, data.length, MPI.INT, partner, TAG));
                default -> requests.add(comm.Isend(data, 0, data.length, MPI.INT, partner, TAG));
            }
        }
        return requests;
    }

    /** Receives this kind's messages from {@code partner} with blocking receives, and checks every element. */
    void receive(final Intracomm comm, final int cell, final int partner) throws MPIException
    {
        for (int message = 0; message < messages; message++)
        {
            final int[] data = new int[length(message)];
            comm.Recv(data, 0, data.length, MPI.INT, partner, TAG);
            final int[] expected = pattern(cell, partner, message, data.length);
            for (int i = 0; i < data.length; i++)
            {
                if (data[i] != expected[i])
                {
                    throw new IllegalStateException("rank " + comm.Rank() + ", cell " + cell + ": element " + i +
                        " of message " + message + " from rank " + partner + " is " + data[i] + ", not " + expected[i]);
                }
            }
        }
    }

    /**
     * Completes what {@link #start} returned: waits for each request, or for a buffered send detaches the
     * buffer (which waits for every send made from it) and attaches a fresh one.
     */
    void complete(final List<Request> requests) throws MPIException
    {
        for (final Request request : requests)
        {
            request.Wait();
        }
        if (this == BSEND)
        {
            MPI.Buffer_detach();
            attachBuffer();
        }
    }

    /** Attaches the buffer that {@link #BSEND} sends from. */
    static void attachBuffer() throws MPIException
    {
        MPI.Buffer_attach(ByteBuffer.allocateDirect(BSEND_BUFFER_BYTES));
    }

    private static int[] pattern(final int cell, final int sender, final int message, final int length)
    {
        final int[] data = new int[length];
        for (int i = 0; i < length; i++)
        {
            data[i] = cell * 1_000_003 + sender * 10_007 + message * 101 + i;
        }
        return data;
    }
}
