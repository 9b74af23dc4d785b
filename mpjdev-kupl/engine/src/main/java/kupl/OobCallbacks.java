package kupl;

/**
 * The out-of-band transport a comm is built on ({@code kupl_shm_oob_cb_t}).
 *
 * <p>The engine never talks to other processes except through these two collective
 * callbacks (while building a comm or a window) and through shared memory (everything
 * else). Any transport works: MPI's {@code Allgather}/{@code Barrier} as in the KUPL
 * examples, local sockets, threads of one JVM. Both are collective over {@code group}
 * and must be called by every process of the comm in the same order.
 */
public interface OobCallbacks
{
    /**
     * Gathers {@code size} units of {@code datatype} from every process into {@code recvbuf},
     * process i's contribution at byte offset {@code i * size * datatype.sizeBytes()}.
     *
     * @return {@link Kupl#KUPL_OK} on success, anything else on failure.
     */
    int oobAllgather(byte[] sendbuf, byte[] recvbuf, int size, Object group, ShmDatatype datatype);

    /**
     * Returns only when every process of {@code group} has called it.
     *
     * @return {@link Kupl#KUPL_OK} on success, anything else on failure.
     */
    int oobBarrier(Object group);
}
