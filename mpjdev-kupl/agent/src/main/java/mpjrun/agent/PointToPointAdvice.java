package mpjrun.agent;

import mpi.Comm;
import mpi.Datatype;
import mpi.Request;
import mpi.Status;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import xdev.shmdev.ArrayMessages;

/**
 * The advice that sends and receives Java arrays of basic types on the {@code shm} device without MPJ Express's
 * packing ({@link ArrayMessages}), at the start of {@code mpi.Comm}'s protected {@code send}, {@code ssend},
 * {@code isend}, {@code issend}, {@code recv} and {@code irecv}, which its public calls ({@code Send},
 * {@code Sendrecv}, {@code Send_init}, ...) are built on. Where the direct path has done the call, MPJ Express's
 * body is skipped and, for the calls that return, the exit advice returns what the direct path made. Public
 * {@code Sendrecv} has advice of its own: MPJ Express builds it of {@code Irecv}, {@code Isend} and two waits,
 * whose requests the direct path's own exchange does not need.
 */
final class PointToPointAdvice
{
    /** The class the inlined advice calls. */
    static final String RUNTIME = "xdev.shmdev.ArrayMessages";
    private static final String ARGUMENTS = "(Ljava/lang/Object;IILmpi/Datatype;IIZ)";
    static final String SEND = ARGUMENTS + "V";
    static final String START = ARGUMENTS + "Lmpi/Request;";
    static final String RECV = ARGUMENTS + "Lmpi/Status;";
    private static final String BUFFER = "Ljava/lang/Object;IILmpi/Datatype;II";
    static final String SENDRECV = "(" + BUFFER + BUFFER + ")Lmpi/Status;";

    private PointToPointAdvice()
    {
    }

    /** {@code Comm.send(buf, offset, count, datatype, dest, tag, pt2pt)}. */
    static final class Send
    {
        private Send()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This final Comm comm, @Advice.Argument(0) final Object buf,
            @Advice.Argument(1) final int offset, @Advice.Argument(2) final int count,
            @Advice.Argument(3) final Datatype datatype, @Advice.Argument(4) final int dest,
            @Advice.Argument(5) final int tag, @Advice.Argument(6) final boolean pt2pt)
        {
            return ArrayMessages.send(comm, buf, offset, count, datatype, dest, tag, pt2pt, false);
        }
    }

    /** {@code Comm.ssend}, the arguments of {@code send}. */
    static final class Ssend
    {
        private Ssend()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This final Comm comm, @Advice.Argument(0) final Object buf,
            @Advice.Argument(1) final int offset, @Advice.Argument(2) final int count,
            @Advice.Argument(3) final Datatype datatype, @Advice.Argument(4) final int dest,
            @Advice.Argument(5) final int tag, @Advice.Argument(6) final boolean pt2pt)
        {
            return ArrayMessages.send(comm, buf, offset, count, datatype, dest, tag, pt2pt, true);
        }
    }

    /** {@code Comm.isend}, returning the request. */
    static final class Isend
    {
        private Isend()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static Request enter(@Advice.This final Comm comm, @Advice.Argument(0) final Object buf,
            @Advice.Argument(1) final int offset, @Advice.Argument(2) final int count,
            @Advice.Argument(3) final Datatype datatype, @Advice.Argument(4) final int dest,
            @Advice.Argument(5) final int tag, @Advice.Argument(6) final boolean pt2pt)
        {
            return ArrayMessages.isend(comm, buf, offset, count, datatype, dest, tag, pt2pt, false);
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter final Request started,
            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Request returned)
        {
            if (started != null)
            {
                returned = started;
            }
        }
    }

    /** {@code Comm.issend}, returning the request. */
    static final class Issend
    {
        private Issend()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static Request enter(@Advice.This final Comm comm, @Advice.Argument(0) final Object buf,
            @Advice.Argument(1) final int offset, @Advice.Argument(2) final int count,
            @Advice.Argument(3) final Datatype datatype, @Advice.Argument(4) final int dest,
            @Advice.Argument(5) final int tag, @Advice.Argument(6) final boolean pt2pt)
        {
            return ArrayMessages.isend(comm, buf, offset, count, datatype, dest, tag, pt2pt, true);
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter final Request started,
            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Request returned)
        {
            if (started != null)
            {
                returned = started;
            }
        }
    }

    /** {@code Comm.recv(buf, offset, count, datatype, source, tag, pt2pt)}, returning the status. */
    static final class Recv
    {
        private Recv()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static Status enter(@Advice.This final Comm comm, @Advice.Argument(0) final Object buf,
            @Advice.Argument(1) final int offset, @Advice.Argument(2) final int count,
            @Advice.Argument(3) final Datatype datatype, @Advice.Argument(4) final int source,
            @Advice.Argument(5) final int tag, @Advice.Argument(6) final boolean pt2pt)
        {
            return ArrayMessages.recv(comm, buf, offset, count, datatype, source, tag, pt2pt);
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter final Status received,
            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Status returned)
        {
            if (received != null)
            {
                returned = received;
            }
        }
    }

    /** {@code Comm.irecv}, returning the request. */
    static final class Irecv
    {
        private Irecv()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static Request enter(@Advice.This final Comm comm, @Advice.Argument(0) final Object buf,
            @Advice.Argument(1) final int offset, @Advice.Argument(2) final int count,
            @Advice.Argument(3) final Datatype datatype, @Advice.Argument(4) final int source,
            @Advice.Argument(5) final int tag, @Advice.Argument(6) final boolean pt2pt)
        {
            return ArrayMessages.irecv(comm, buf, offset, count, datatype, source, tag, pt2pt);
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter final Request started,
            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Request returned)
        {
            if (started != null)
            {
                returned = started;
            }
        }
    }

    /** {@code Comm.Sendrecv(sendbuf, ..., sendtag, recvbuf, ..., recvtag)}, returning the status. */
    static final class Sendrecv
    {
        private Sendrecv()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static Status enter(@Advice.This final Comm comm, @Advice.Argument(0) final Object sendbuf,
            @Advice.Argument(1) final int sendoffset, @Advice.Argument(2) final int sendcount,
            @Advice.Argument(3) final Datatype sendtype, @Advice.Argument(4) final int dest,
            @Advice.Argument(5) final int sendtag, @Advice.Argument(6) final Object recvbuf,
            @Advice.Argument(7) final int recvoffset, @Advice.Argument(8) final int recvcount,
            @Advice.Argument(9) final Datatype recvtype, @Advice.Argument(10) final int source,
            @Advice.Argument(11) final int recvtag)
        {
            return ArrayMessages.sendrecv(comm, sendbuf, sendoffset, sendcount, sendtype, dest, sendtag, recvbuf,
                recvoffset, recvcount, recvtype, source, recvtag);
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter final Status received,
            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Status returned)
        {
            if (received != null)
            {
                returned = received;
            }
        }
    }
}
