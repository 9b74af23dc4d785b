package kupl.bootstrap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.ProtocolException;

/**
 * The first message of every connection to an {@link OobHub}: who the rank says it is, and the
 * hub's one-byte answer once the job has started or given up.
 *
 * <pre>
 *  0       4       8               16      20
 *  +-------+-------+-------+-------+-------+
 *  | MAGIC |     job id    | size  | rank  |   rank to hub, big-endian
 *  +-------+-------+-------+-------+-------+
 *
 *  WELCOME                    hub to rank: every rank has arrived, rounds of allgathers follow
 *  REFUSED, UTF-8 reason      hub to rank: the job will not start (a rank is missing), the reason says which
 * </pre>
 *
 * <p>The job id is not a secret (it is on every rank's command line): only processes of the
 * launcher's user can reach the hub at all. It keeps a greeting meant for another job, or a
 * stray connection, from being counted as a rank.
 *
 * @param jobId the hub's {@link OobHub#jobId()}.
 * @param size  the number of ranks the sender expects.
 * @param rank  the sender's rank.
 */
record Greeting(long jobId, int size, int rank)
{
    /** "KOOB": KUPL out-of-band, version 1. */
    static final int MAGIC = 0x4B4F4F42;
    static final int WELCOME = 1;
    static final int REFUSED = 2;

    void write(final DataOutput out) throws IOException
    {
        out.writeInt(MAGIC);
        out.writeLong(jobId);
        out.writeInt(size);
        out.writeInt(rank);
    }

    /**
     * Reads a greeting.
     *
     * @throws ProtocolException if the first word is not {@link #MAGIC}: the peer is not a rank.
     * @throws java.io.EOFException if the peer closed the connection first.
     */
    static Greeting read(final DataInput in) throws IOException
    {
        if (in.readInt() != MAGIC)
        {
            throw new ProtocolException("not a rank's greeting");
        }
        return new Greeting(in.readLong(), in.readInt(), in.readInt());
    }
}
