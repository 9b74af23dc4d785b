package mpjrun.agent;

import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.Op;
import net.bytebuddy.asm.Advice;
import xdev.shmdev.coll.ShmCollectives;

/**
 * The advice that routes MPJ Express's {@code Intracomm} collectives to shared memory
 * ({@link ShmCollectives}) on the {@code shm} device. Each replaces the method's body when the shared-memory
 * path has done the call ({@code skipOn}: a {@code true} from the enter advice skips MPJ Express's code),
 * and leaves it to run unchanged otherwise.
 */
final class CollectiveAdvice
{
    /** The class the inlined advice calls: rank JVMs see it through the agent jar or the class path. */
    static final String RUNTIME = "xdev.shmdev.coll.ShmCollectives";
    static final String BARRIER = "()V";
    static final String BCAST = "(Ljava/lang/Object;IILmpi/Datatype;I)V";
    static final String ROOTED_EXCHANGE = "(Ljava/lang/Object;IILmpi/Datatype;Ljava/lang/Object;IILmpi/Datatype;I)V";
    static final String EXCHANGE = "(Ljava/lang/Object;IILmpi/Datatype;Ljava/lang/Object;IILmpi/Datatype;)V";
    static final String REDUCE = "(Ljava/lang/Object;ILjava/lang/Object;IILmpi/Datatype;Lmpi/Op;I)V";
    static final String ALLREDUCE = "(Ljava/lang/Object;ILjava/lang/Object;IILmpi/Datatype;Lmpi/Op;)V";

    private CollectiveAdvice()
    {
    }

    /** {@code Intracomm.Barrier()}. */
    static final class Barrier
    {
        private Barrier()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This final Intracomm comm)
        {
            return ShmCollectives.barrier(comm);
        }
    }

    /** {@code Intracomm.Bcast(buf, offset, count, datatype, root)}. */
    static final class Bcast
    {
        private Bcast()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This final Intracomm comm, @Advice.Argument(0) final Object buf,
            @Advice.Argument(1) final int offset, @Advice.Argument(2) final int count,
            @Advice.Argument(3) final Datatype datatype, @Advice.Argument(4) final int root)
        {
            return ShmCollectives.bcast(comm, buf, offset, count, datatype, root);
        }
    }

    /** {@code Intracomm.Reduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root)}. */
    static final class Reduce
    {
        private Reduce()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This final Intracomm comm, @Advice.Argument(0) final Object sendbuf,
            @Advice.Argument(1) final int sendoffset, @Advice.Argument(2) final Object recvbuf,
            @Advice.Argument(3) final int recvoffset, @Advice.Argument(4) final int count,
            @Advice.Argument(5) final Datatype datatype, @Advice.Argument(6) final Op op,
            @Advice.Argument(7) final int root)
        {
            return ShmCollectives.reduce(comm, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root);
        }
    }

    /** {@code Intracomm.Allreduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op)}. */
    static final class Allreduce
    {
        private Allreduce()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This final Intracomm comm, @Advice.Argument(0) final Object sendbuf,
            @Advice.Argument(1) final int sendoffset, @Advice.Argument(2) final Object recvbuf,
            @Advice.Argument(3) final int recvoffset, @Advice.Argument(4) final int count,
            @Advice.Argument(5) final Datatype datatype, @Advice.Argument(6) final Op op)
        {
            return ShmCollectives.allreduce(comm, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
        }
    }

    /** {@code Intracomm.Gather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype, root)}. */
    static final class Gather
    {
        private Gather()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This final Intracomm comm, @Advice.Argument(0) final Object sendbuf,
            @Advice.Argument(1) final int sendoffset, @Advice.Argument(2) final int sendcount,
            @Advice.Argument(3) final Datatype sendtype, @Advice.Argument(4) final Object recvbuf,
            @Advice.Argument(5) final int recvoffset, @Advice.Argument(6) final int recvcount,
            @Advice.Argument(7) final Datatype recvtype, @Advice.Argument(8) final int root)
        {
            return ShmCollectives.gather(comm, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                recvcount, recvtype, root);
        }
    }

    /** {@code Intracomm.Scatter}, same arguments as {@code Gather}. */
    static final class Scatter
    {
        private Scatter()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This final Intracomm comm, @Advice.Argument(0) final Object sendbuf,
            @Advice.Argument(1) final int sendoffset, @Advice.Argument(2) final int sendcount,
            @Advice.Argument(3) final Datatype sendtype, @Advice.Argument(4) final Object recvbuf,
            @Advice.Argument(5) final int recvoffset, @Advice.Argument(6) final int recvcount,
            @Advice.Argument(7) final Datatype recvtype, @Advice.Argument(8) final int root)
        {
            return ShmCollectives.scatter(comm, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                recvcount, recvtype, root);
        }
    }

    /** {@code Intracomm.Allgather}, the arguments of {@code Gather} but the root. */
    static final class Allgather
    {
        private Allgather()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This final Intracomm comm, @Advice.Argument(0) final Object sendbuf,
            @Advice.Argument(1) final int sendoffset, @Advice.Argument(2) final int sendcount,
            @Advice.Argument(3) final Datatype sendtype, @Advice.Argument(4) final Object recvbuf,
            @Advice.Argument(5) final int recvoffset, @Advice.Argument(6) final int recvcount,
            @Advice.Argument(7) final Datatype recvtype)
        {
            return ShmCollectives.allgather(comm, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                recvcount, recvtype);
        }
    }

    /** {@code Intracomm.Alltoall}, the arguments of {@code Allgather}. */
    static final class Alltoall
    {
        private Alltoall()
        {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This final Intracomm comm, @Advice.Argument(0) final Object sendbuf,
            @Advice.Argument(1) final int sendoffset, @Advice.Argument(2) final int sendcount,
            @Advice.Argument(3) final Datatype sendtype, @Advice.Argument(4) final Object recvbuf,
            @Advice.Argument(5) final int recvoffset, @Advice.Argument(6) final int recvcount,
            @Advice.Argument(7) final Datatype recvtype)
        {
            return ShmCollectives.alltoall(comm, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                recvcount, recvtype);
        }
    }

    /** {@code Comm.Free()}: the communicator's shared memory goes first (collective, as Free is). */
    static final class Free
    {
        private Free()
        {
        }

        @Advice.OnMethodEnter
        static void enter(@Advice.This final Comm comm)
        {
            ShmCollectives.free(comm);
        }
    }

    /** {@code MPI.Finalize()}: every communicator's shared memory goes, while MPJ Express still runs. */
    static final class Finalize
    {
        private Finalize()
        {
        }

        @Advice.OnMethodEnter
        static void enter()
        {
            ShmCollectives.finalizeAll();
        }
    }
}
