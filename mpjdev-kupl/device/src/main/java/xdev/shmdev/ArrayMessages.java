package xdev.shmdev;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.LongAdder;

import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import mpjdev.javampjdev.MPJDev;
import xdev.XDevException;

/**
 * Point-to-point messages of Java arrays of a basic type on the {@code shm} device, without MPJ Express's
 * packing: the kupl agent calls these at the start of {@code mpi.Comm}'s {@code send}, {@code ssend},
 * {@code isend}, {@code issend}, {@code recv} and {@code irecv} (on which {@code Send}, {@code Sendrecv},
 * {@code Send_init} and the rest are built). Where MPJ Express packs an array into an {@code mpjbuf.Buffer}
 * (big-endian, behind a section header), sends that, and unpacks it on the other side, these move the elements
 * from the sender's array into shared memory and out into the receiver's array: one copy on each side.
 *
 * <p>Each method returns what MPJ Express's would (true, a request, a status) when it has done the call, and
 * false or null when MPJ Express must: another device, {@code -Dkupl.p2p=off}, an intercommunicator, a datatype
 * other than {@code BYTE}, {@code CHAR}, {@code SHORT}, {@code INT}, {@code LONG}, {@code FLOAT} or
 * {@code DOUBLE}, a buffer that is not an array of that type, arguments MPJ Express reports as errors, or the
 * messages of its own collectives. Both kinds of message match both kinds of receive, in MPI's order
 * ({@link ReceiveTarget}).
 */
public final class ArrayMessages
{
    /** System property: {@code off} leaves every point-to-point call to MPJ Express. */
    public static final String ENABLED_PROPERTY = "kupl.p2p";

    /** The device, once {@code MPI.Init} has chosen the shm device and the path is on; else null. */
    private static volatile ShmDevice device;
    private static volatile boolean decided;
    /** Per MPJ Express communicator (weakly: a freed one goes), its ranks on the device. */
    private static final Map<mpjdev.Comm, CommRanks> RANKS = Collections.synchronizedMap(new WeakHashMap<>());
    private static volatile CommRanks last;
    private static final LongAdder HANDLED_CALLS = new LongAdder();
    /** Each thread's requests for its blocking calls. */
    private static final ThreadLocal<Reusable> REUSABLE = ThreadLocal.withInitial(Reusable::new);

    private ArrayMessages()
    {
    }

    /** Sends and receives this process has done here (for tests and benchmarks). */
    public static long handledCalls()
    {
        return HANDLED_CALLS.sum();
    }

    /** {@code Comm.send} or {@code Comm.ssend}; whether it was done here. */
    public static boolean send(final Comm comm, final Object buf, final int offset, final int count,
        final Datatype datatype, final int dest, final int tag, final boolean pt2pt, final boolean synchronous)
        throws MPIException
    {
        final Reusable reusable = REUSABLE.get();
        final SendRequest send = startSend(comm, buf, offset, count, datatype, dest, tag, pt2pt, synchronous,
            reusable);
        if (send == null)
        {
            return false;
        }
        try
        {
            send.iwait();
        }
        catch (final XDevException e)
        {
            throw new MPIException(e);
        }
        if (send.destination != device.rank())
        {
            reusable.sendDone(send);
        }
        return true;
    }

    /** {@code Comm.isend} or {@code Comm.issend}; null if MPJ Express must do it. */
    public static Request isend(final Comm comm, final Object buf, final int offset, final int count,
        final Datatype datatype, final int dest, final int tag, final boolean pt2pt, final boolean synchronous)
        throws MPIException
    {
        final SendRequest send = startSend(comm, buf, offset, count, datatype, dest, tag, pt2pt, synchronous, null);
        return send == null ? null : new Request(send);
    }

    /** {@code Comm.recv}; null if MPJ Express must do it. */
    public static Status recv(final Comm comm, final Object buf, final int offset, final int count,
        final Datatype datatype, final int source, final int tag, final boolean pt2pt) throws MPIException
    {
        final Reusable reusable = REUSABLE.get();
        final RecvRequest receive = postReceive(comm, buf, offset, count, datatype, source, tag, pt2pt, reusable);
        if (receive == null)
        {
            return null;
        }
        final Status status;
        try
        {
            // A new mpi.Status, as MPJ Express's Recv returns: the program may keep it.
            status = new Status(receive.iwait());
        }
        catch (final XDevException e)
        {
            throw new MPIException(e);
        }
        reusable.receiveDone(receive);
        return status;
    }

    /**
     * {@code Comm.Sendrecv}; null if MPJ Express must do it (then its {@code Irecv} and {@code Isend} may still come
     * here one by one). As MPJ Express's: the receive is posted first, then the send started, and both waited for;
     * in this thread's reused requests, so an exchange makes no object but the status it returns.
     */
    public static Status sendrecv(final Comm comm, final Object sendbuf, final int sendoffset, final int sendcount,
        final Datatype sendtype, final int dest, final int sendtag, final Object recvbuf, final int recvoffset,
        final int recvcount, final Datatype recvtype, final int source, final int recvtag) throws MPIException
    {
        final ShmDevice shm = device();
        if (shm == null || kindOf(sendtype, sendbuf, sendoffset, sendcount) == null ||
            kindOf(recvtype, recvbuf, recvoffset, recvcount) == null)
        {
            return null;
        }
        final CommRanks ranks = ranksOf(comm, shm);
        if (ranks == null || dest < 0 || dest >= ranks.deviceRankOf.length ||
            source != MPI.ANY_SOURCE && (source < 0 || source >= ranks.deviceRankOf.length))
        {
            return null;
        }
        final Reusable reusable = REUSABLE.get();
        final RecvRequest receive = postReceive(comm, recvbuf, recvoffset, recvcount, recvtype, source, recvtag, true,
            reusable);
        final SendRequest send = startSend(comm, sendbuf, sendoffset, sendcount, sendtype, dest, sendtag, true, false,
            reusable);
        final Status status;
        try
        {
            status = new Status(receive.iwait());
            send.iwait();
        }
        catch (final XDevException e)
        {
            throw new MPIException(e);
        }
        reusable.receiveDone(receive);
        if (send.destination != shm.rank())
        {
            reusable.sendDone(send);
        }
        return status;
    }

    /** {@code Comm.irecv}; null if MPJ Express must do it. */
    public static Request irecv(final Comm comm, final Object buf, final int offset, final int count,
        final Datatype datatype, final int source, final int tag, final boolean pt2pt) throws MPIException
    {
        final RecvRequest receive = postReceive(comm, buf, offset, count, datatype, source, tag, pt2pt, null);
        return receive == null ? null : new Request(receive);
    }

    /** Starts a send, in the thread's reusable request if {@code reusable} is not null (a blocking call). */
    private static SendRequest startSend(final Comm comm, final Object buf, final int offset, final int count,
        final Datatype datatype, final int dest, final int tag, final boolean pt2pt, final boolean synchronous,
        final Reusable reusable) throws MPIException
    {
        final ShmDevice shm = device();
        final ElementKind kind = shm == null || !pt2pt ? null : kindOf(datatype, buf, offset, count);
        final CommRanks ranks = kind == null ? null : ranksOf(comm, shm);
        if (ranks == null || dest < 0 || dest >= ranks.deviceRankOf.length)
        {
            return null;
        }
        HANDLED_CALLS.increment();
        try
        {
            final int destination = ranks.deviceRankOf[dest];
            // A message to this very process keeps its send until a receive matches it: never a reused request.
            final SendRequest reuse = reusable == null || destination == shm.rank() ? null : reusable.takeSend();
            final MessageBytes bytes;
            if (reuse != null)
            {
                bytes = reuse.bytes;
                bytes.viewElements(buf, kind, offset, count);
            }
            else
            {
                bytes = MessageBytes.ofElements(buf, kind, offset, count);
            }
            return shm.sendElements(bytes, destination, tag, ranks.sendContext, synchronous, reuse);
        }
        catch (final XDevException e)
        {
            throw new MPIException(e);
        }
    }

    /** Posts a receive, in the thread's reusable request if {@code reusable} is not null (a blocking call). */
    private static RecvRequest postReceive(final Comm comm, final Object buf, final int offset, final int count,
        final Datatype datatype, final int source, final int tag, final boolean pt2pt, final Reusable reusable)
        throws MPIException
    {
        final ShmDevice shm = device();
        final ElementKind kind = shm == null || !pt2pt ? null : kindOf(datatype, buf, offset, count);
        final CommRanks ranks = kind == null ? null : ranksOf(comm, shm);
        if (ranks == null || source != MPI.ANY_SOURCE && (source < 0 || source >= ranks.deviceRankOf.length))
        {
            return null;
        }
        HANDLED_CALLS.increment();
        try
        {
            final RecvRequest reuse = reusable == null ? null : reusable.takeReceive();
            final ElementReceive target;
            if (reuse != null)
            {
                target = reuse.elementTarget();
                target.aim(kind, buf, offset, count, ranks.commRankOf);
            }
            else
            {
                target = new ElementReceive(kind, buf, offset, count, ranks.commRankOf);
            }
            return shm.receiveElements(target, source == MPI.ANY_SOURCE ? RecvRequest.ANY :
                ranks.deviceRankOf[source], tag, ranks.recvContext, reuse);
        }
        catch (final XDevException e)
        {
            throw new MPIException(e);
        }
    }

    /** The element kind of a call that may go the direct way, or null. */
    private static ElementKind kindOf(final Datatype datatype, final Object buf, final int offset, final int count)
    {
        final ElementKind kind = ElementKind.ofBasic(datatype);
        if (kind == null || ElementKind.ofArray(buf) != kind || offset < 0 || count < 0 ||
            (long)offset + count > java.lang.reflect.Array.getLength(buf))
        {
            return null;
        }
        return kind;
    }

    private static ShmDevice device()
    {
        if (decided)
        {
            return device;
        }
        // Decided once MPI.Init has chosen a device; before that, MPJ Express reports the call.
        final xdev.Device chosen = MPJDev.dev;
        if (chosen == null)
        {
            return null;
        }
        device = chosen instanceof ShmDevice shm && !"off".equals(System.getProperty(ENABLED_PROPERTY, "on")) ? shm :
            null;
        decided = true;
        return device;
    }

    private static CommRanks ranksOf(final Comm comm, final ShmDevice shm)
    {
        if (!(comm instanceof Intracomm) || !(comm.mpjdevComm instanceof mpjdev.javampjdev.Comm mpj))
        {
            return null;
        }
        final CommRanks recent = last;
        if (recent != null && recent.comm == mpj)
        {
            return recent;
        }
        final CommRanks ranks = RANKS.computeIfAbsent(mpj, key -> CommRanks.of(mpj, shm));
        last = ranks;
        return ranks;
    }

    /**
     * A thread's requests for its blocking {@code Send} and {@code Recv}, reused call after call so that a message
     * pair makes no object once warm (an {@code Isend} or {@code Irecv} makes its own: the program holds it). A
     * request is taken out while its call runs and given back only once waited for without error, so a call that
     * fails, or one nested in it, makes a new one; given back, it holds no array of the program's.
     */
    private static final class Reusable
    {
        private SendRequest send;
        private RecvRequest receive;

        SendRequest takeSend()
        {
            final SendRequest taken = send;
            send = null;
            return taken;
        }

        RecvRequest takeReceive()
        {
            final RecvRequest taken = receive;
            receive = null;
            return taken;
        }

        void sendDone(final SendRequest done)
        {
            done.bytes.clearElements();
            send = done;
        }

        void receiveDone(final RecvRequest done)
        {
            done.elementTarget().clear();
            receive = done;
        }
    }

    /** A communicator's ranks on the device, both ways, and its point-to-point contexts. */
    private record CommRanks(mpjdev.javampjdev.Comm comm, int[] deviceRankOf, int[] commRankOf, int sendContext,
        int recvContext)
    {
        static CommRanks of(final mpjdev.javampjdev.Comm comm, final ShmDevice shm)
        {
            final xdev.ProcessID[] ids = comm.group.ids;
            final int[] deviceRankOf = new int[ids.length];
            final int[] commRankOf = new int[shm.size()];
            java.util.Arrays.fill(commRankOf, MPI.UNDEFINED);
            for (int rank = 0; rank < ids.length; rank++)
            {
                deviceRankOf[rank] = shm.rankOf(ids[rank]);
                commRankOf[deviceRankOf[rank]] = rank;
            }
            return new CommRanks(comm, deviceRankOf, commRankOf, comm.sendctxt, comm.recvctxt);
        }
    }
}
