package mpi.rma.internal.message;

import mpi.Datatype;
import mpi.MPI;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;

/**
 * The wire format of the message path ({@link MessageWindow}, {@link TargetAgent}). An origin
 * sends a header of {@value #HEADER_LONGS} longs on the window's request communicator with
 * {@link #REQUEST_TAG}; the agent receives it from any source. Data that goes with it (put and
 * accumulate operands, compare-and-swap's two values) follows in one message of the operation's
 * own type with {@link #DATA_TAG}, which the agent receives from that origin only, right after
 * the header. The agent answers on the window's reply communicator with {@link #REPLY_TAG}:
 * the elements of a get, or an acknowledgement ({@value #ACK_LONGS} longs: the request's kind and the
 * access faults found on a dynamic window, {@link AccessFault}). A target's win.post travels on the
 * reply communicator too, with {@link #POST_TAG}, straight to the origin's user thread. Up to
 * {@value #INLINE_ELEMENTS} elements of data travel inside the header instead, one raw long each
 * ({@link BasicType}), which saves a message on the small operations that dominate latency.
 *
 * <pre>
 * header: | kind | basic type | reduce op | count | byte offset in target | lock exclusive (0/1) | inline data... |
 * </pre>
 *
 * <p><b>Derived target datatypes.</b> Data always travels dense, in the origin type's order: the
 * origin packs a derived origin buffer ({@link ElementPacking}) and unpacks a reply into a derived
 * result buffer, so the agent never sees the origin's datatype. A derived target datatype travels
 * as its run list ({@link TargetRuns}: a pattern of runs, byte offset from the target displacement
 * and length in elements, repeated at a fixed spacing, and that repeated per copy), whose length in
 * longs is the header's sixth long ({@link #LAYOUT_LONGS}, the field that only lock requests use otherwise, and 0 for a
 * dense target); {@code count} is then the number of elements and the byte offset that of the
 * target displacement. A run list of at most {@value #INLINE_LAYOUT_LONGS} longs (ten runs) rides
 * in the header, before any inline data; a longer one follows the header as a message of its own
 * with {@link #LAYOUT_TAG}, before the data message. The agent scatters the dense data into the
 * runs for a put or accumulate and gathers them into a dense reply for a get-like request:
 *
 * <pre>
 * derived target: | kind | type | op | count | byte offset | run list longs L | run list if L &lt;= 25 | data... |
 * run list:       | copies | copy bytes | repeats | repeat bytes | runs | offset 0 | elements 0 | ... |
 * </pre>
 *
 * A dense target keeps the header above unchanged, so basic and contiguous datatypes cost what they
 * did; a derived origin with a dense target is a dense request of packed data.
 *
 * Tags are small on purpose: MPJ Express 0.44 gives a communicator's collectives the context
 * 3 * c (c its point-to-point context), which can be another communicator's point-to-point
 * context; its collectives use tags from 34001 up, which these never meet.
 */
public final class RmaRequest
{
    static final int REQUEST_TAG = 1;
    static final int DATA_TAG = 2;
    static final int REPLY_TAG = 3;
    /** A target's win.post to an origin, on the reply communicator: received by the origin's win.start. */
    public static final int POST_TAG = 4;
    /** A derived target's run list too long for the header, from the origin right after its header. */
    static final int LAYOUT_TAG = 5;

    static final int HEADER_LONGS = 6;
    /** Elements of data carried in the header itself. */
    static final int INLINE_ELEMENTS = 8;
    /** The longest run list carried in the header itself: ten runs. */
    static final int INLINE_LAYOUT_LONGS = TargetRuns.FIXED_LONGS + 2 * 10;
    /** The longest header: what the agent receives into. */
    static final int MAX_HEADER_LONGS = HEADER_LONGS + INLINE_LAYOUT_LONGS + INLINE_ELEMENTS;
    static final int KIND = 0;
    static final int TYPE = 1;
    static final int OP = 2;
    static final int COUNT = 3;
    static final int OFFSET = 4;
    static final int EXCLUSIVE = 5;
    /** Of a put, get or accumulate request: the longs of its target's run list, 0 for a dense target. */
    static final int LAYOUT_LONGS = 5;

    static final long PUT = 1;
    static final long GET = 2;
    static final long ACCUMULATE = 3;
    static final long GET_ACCUMULATE = 4;
    static final long COMPARE_AND_SWAP = 5;
    static final long LOCK = 6;
    static final long UNLOCK = 7;
    static final long FLUSH = 8;
    /** The last message an agent receives: sent by a neighbour once the window is freed everywhere. */
    static final long STOP = 9;
    /** An origin's win.complete: counted by the agent once the origin's earlier requests are applied. */
    public static final long COMPLETE = 10;

    /**
     * An acknowledgement (of a lock, unlock or flush) and, on a dynamic window, the status sent before
     * a reply's elements: the request's kind, then an {@link AccessFault} if the target found one.
     */
    static final int ACK_LONGS = 6;
    static final int ACK_KIND = 0;
    static final int ACK_FAULTS = 1;
    static final int ACK_ADDRESS = 2;
    static final int ACK_BYTES = 3;
    static final int ACK_REGION_BASE = 4;
    static final int ACK_REGION_BYTES = 5;

    private RmaRequest()
    {
    }

    static long[] header(final long kind, final BasicType type, final ReduceOp op, final int count, final long offset,
        final boolean exclusive)
    {
        return new long[] {kind, type == null ? -1 : type.ordinal(), op == null ? -1 : op.ordinal(), count, offset,
            exclusive ? 1 : 0};
    }

    /** Whether {@code count} elements of data travel inside the header. */
    static boolean inline(final int count)
    {
        return count <= INLINE_ELEMENTS;
    }

    /** A header carrying {@code count} (at most {@value #INLINE_ELEMENTS}) elements of {@code data} inline. */
    static long[] withData(final long kind, final BasicType type, final ReduceOp op, final long offset,
        final Object data, final int index, final int count)
    {
        final long[] header = header(kind, type, op, count, offset, false);
        final long[] message = java.util.Arrays.copyOf(header, HEADER_LONGS + count);
        for (int i = 0; i < count; i++)
        {
            message[HEADER_LONGS + i] = type.rawFromArray(data, index + i);
        }
        return message;
    }

    /** The data inline in {@code header}, as a new array of its type. */
    static Object inlineData(final long[] header, final BasicType type, final int count)
    {
        return inlineData(header, HEADER_LONGS, type, count);
    }

    /** The data inline in {@code header} from index {@code at}, as a new array of its type. */
    static Object inlineData(final long[] header, final int at, final BasicType type, final int count)
    {
        final Object data = newArray(type, count);
        for (int i = 0; i < count; i++)
        {
            type.rawToArray(header[at + i], data, i);
        }
        return data;
    }

    /** Whether a run list of {@code longs} longs travels inside the header. */
    static boolean inlineLayout(final int longs)
    {
        return longs <= INLINE_LAYOUT_LONGS;
    }

    /**
     * A request to a derived target ({@link TargetRuns}), with {@code count} elements of {@code data} inline
     * unless it is null (a get, a NO_OP getAccumulate, or more than {@value #INLINE_ELEMENTS} elements).
     */
    static long[] withRuns(final long kind, final BasicType type, final ReduceOp op, final int count,
        final long offset, final TargetRuns runs, final Object data, final int index)
    {
        final int layoutLongs = runs.encodedLongs();
        final int inLayout = inlineLayout(layoutLongs) ? layoutLongs : 0;
        final int inData = data == null ? 0 : count;
        final long[] message = new long[HEADER_LONGS + inLayout + inData];
        message[KIND] = kind;
        message[TYPE] = type.ordinal();
        message[OP] = op == null ? -1 : op.ordinal();
        message[COUNT] = count;
        message[OFFSET] = offset;
        message[LAYOUT_LONGS] = layoutLongs;
        if (inLayout > 0)
        {
            runs.encodeInto(message, HEADER_LONGS);
        }
        for (int i = 0; i < inData; i++)
        {
            message[HEADER_LONGS + inLayout + i] = type.rawFromArray(data, index + i);
        }
        return message;
    }

    /** Where the inline data of {@code header} starts: after its run list if that rides in it. */
    static int dataIndex(final long[] header)
    {
        final int layoutLongs = (int)header[LAYOUT_LONGS];
        return HEADER_LONGS + (layoutLongs > 0 && inlineLayout(layoutLongs) ? layoutLongs : 0);
    }

    public static long[] control(final long kind, final boolean exclusive)
    {
        return header(kind, null, null, 0, 0, exclusive);
    }

    static BasicType type(final long[] header)
    {
        return BasicType.values()[(int)header[TYPE]];
    }

    static ReduceOp op(final long[] header)
    {
        return ReduceOp.values()[(int)header[OP]];
    }

    /** MPJ Express's datatype for {@code type} (this class loader's: multicore ranks each have their own). */
    static Datatype datatype(final BasicType type)
    {
        return switch (type)
        {
            case BYTE -> MPI.BYTE;
            case CHAR -> MPI.CHAR;
            case SHORT -> MPI.SHORT;
            case BOOLEAN -> MPI.BOOLEAN;
            case INT -> MPI.INT;
            case LONG -> MPI.LONG;
            case FLOAT -> MPI.FLOAT;
            case DOUBLE -> MPI.DOUBLE;
        };
    }

    /** A new Java array of {@code count} elements of {@code type}. */
    static Object newArray(final BasicType type, final int count)
    {
        return switch (type)
        {
            case BYTE -> new byte[count];
            case CHAR -> new char[count];
            case SHORT -> new short[count];
            case BOOLEAN -> new boolean[count];
            case INT -> new int[count];
            case LONG -> new long[count];
            case FLOAT -> new float[count];
            case DOUBLE -> new double[count];
        };
    }
}
