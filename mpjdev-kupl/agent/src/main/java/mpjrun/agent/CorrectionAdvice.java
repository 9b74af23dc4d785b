package mpjrun.agent;

import java.lang.reflect.Array;

import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import net.bytebuddy.asm.Advice;

/**
 * The advice that corrects answers MPJ Express 0.44 gets wrong, on every device. Unlike the shm device's advice,
 * the inlined code uses only MPJ Express's public API and the JDK, so it links in any class loader that holds
 * MPJ Express, a multicore rank's own included ({@link AdviceTransformer.Target#needs()} is null).
 */
final class CorrectionAdvice
{
    static final String TRANSLATE_RANKS = "(Lmpi/Group;[ILmpi/Group;)[I";
    static final String RECV = "(Ljava/lang/Object;IILmpi/Datatype;II)Lmpi/Status;";

    private CorrectionAdvice()
    {
    }

    /**
     * {@code Group.Translate_ranks(group1, ranks1, group2)}: MPJ Express's {@code mpjdev.javampjdev.Group.transRanks}
     * translates the positions {@code 0..ranks1.length-1} instead of the ranks {@code ranks1} holds (every rank
     * asking for {@code new int[]{rank}} gets rank 0's answer). Its answer for every rank of {@code group1} is
     * right, so the advice asks for that and picks the entries {@code ranks1} names; {@code MPI.PROC_NULL} gives
     * {@code MPI.PROC_NULL}, as MPI says.
     */
    static final class TranslateRanks
    {
        private TranslateRanks()
        {
        }

        @Advice.OnMethodEnter
        static int[] enter(@Advice.Argument(0) final Group group1,
            @Advice.Argument(value = 1, readOnly = false) int[] ranks1) throws MPIException
        {
            final int[] asked = ranks1;
            if (asked != null && group1 != null)
            {
                final int[] every = new int[group1.Size()];
                for (int rank = 0; rank < every.length; rank++)
                {
                    every[rank] = rank;
                }
                ranks1 = every;
            }
            return asked;
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter final int[] asked, @Advice.Return(readOnly = false) int[] translated)
            throws MPIException
        {
            if (asked == null || translated == null)
            {
                return;
            }
            final int[] answer = new int[asked.length];
            for (int i = 0; i < asked.length; i++)
            {
                if (asked[i] == MPI.PROC_NULL)
                {
                    answer[i] = MPI.PROC_NULL;
                }
                else if (asked[i] >= 0 && asked[i] < translated.length)
                {
                    answer[i] = translated[asked[i]];
                }
                else
                {
                    throw new MPIException("Group.Translate_ranks: ranks1[" + i + "] = " + asked[i] + " is not a rank " +
                        "of group1, which has " + translated.length + " processes (0 to " + (translated.length - 1) +
                        ", or MPI.PROC_NULL)");
                }
            }
            translated = answer;
        }
    }

    /**
     * {@code Intracomm.Gather(sendbuf, ..., recvbuf, recvoffset, recvcount, recvtype, root)}: MPI reads
     * {@code recvbuf} at the root only, but MPJ Express's small-message gather uses it as every rank's staging
     * area and throws a {@code NullPointerException} for a null one off the root. The advice gives such a rank a
     * scratch array of the send buffer's element type, large enough for every block.
     */
    static final class GatherReceiveBuffer
    {
        private GatherReceiveBuffer()
        {
        }

        @Advice.OnMethodEnter
        static void enter(@Advice.This final Intracomm comm, @Advice.Argument(0) final Object sendbuf,
            @Advice.Argument(value = 4, readOnly = false) Object recvbuf, @Advice.Argument(5) final int recvoffset,
            @Advice.Argument(6) final int recvcount, @Advice.Argument(7) final Datatype recvtype,
            @Advice.Argument(8) final int root) throws MPIException
        {
            if (recvbuf == null && sendbuf != null && sendbuf.getClass().isArray() && comm.Rank() != root)
            {
                final int elements = (Math.max(0, recvoffset) + comm.Size() * Math.max(0, recvcount)) *
                    Math.max(1, recvtype == null ? 1 : recvtype.Extent());
                recvbuf = Array.newInstance(sendbuf.getClass().getComponentType(), elements);
            }
        }
    }

    /**
     * {@code Comm.Recv}: MPJ Express's public {@code Recv} wraps the {@code MPIException} its {@code recv} throws
     * in another one, so a receive from a dead rank read {@code mpi.MPIException: mpi.MPIException:
     * xdev.XDevException: rank 2 ...}. The advice throws the inner exception instead, whose message and cause
     * name the device's failure once.
     */
    static final class RecvException
    {
        private RecvException()
        {
        }

        @Advice.OnMethodExit(onThrowable = MPIException.class)
        static void exit(@Advice.Thrown(readOnly = false) Throwable thrown)
        {
            if (thrown instanceof MPIException && thrown.getCause() instanceof MPIException)
            {
                thrown = thrown.getCause();
            }
        }
    }
}
