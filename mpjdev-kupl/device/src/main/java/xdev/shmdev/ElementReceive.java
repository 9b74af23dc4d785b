package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

import mpjdev.Status;
import xdev.XDevException;

/**
 * A receive straight into a Java array of a basic type: {@code count} elements from index {@code index}. A
 * message of array elements of the same type is copied into the array as it arrives, with nothing in between;
 * a message that MPJ Express packed (sent with a derived datatype, or by a rank without the direct path) is
 * staged, then unpacked from its first section as MPJ Express's own receive would, so that any send of the same
 * type signature is received alike. The status then reads as MPJ Express's: the sender's rank in the
 * communicator, the element count.
 */
final class ElementReceive implements ReceiveTarget
{
    private static final ValueLayout.OfInt PACKED_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    // Not final: a thread's blocking receives reuse one target (aim), set before the device sees it each time.
    private ElementKind kind;
    private Object array;
    private int index;
    private long start;
    /** The array as memory, made only if a piece of the message splits an element or it was packed. */
    private MemorySegment view;
    private int count;
    /** Each device rank's rank in the receive's communicator. */
    private int[] commRankOf;
    /** A packed message's bytes, until every one has arrived. */
    private byte[] packed;

    /**
     * @param array      the array, of {@code kind}.
     * @param index      the first element received into.
     * @param commRankOf each device rank's rank in the communicator, for the status.
     */
    ElementReceive(final ElementKind kind, final Object array, final int index, final int count,
        final int[] commRankOf)
    {
        aim(kind, array, index, count, commRankOf);
    }

    /** Now into {@code count} elements of {@code array} from {@code index}: a reused receive's next one. */
    void aim(final ElementKind kind, final Object array, final int index, final int count, final int[] commRankOf)
    {
        this.kind = kind;
        this.array = array;
        this.index = index;
        this.start = (long)index * kind.bytes();
        this.count = count;
        this.commRankOf = commRankOf;
        this.view = null;
        this.packed = null;
    }

    /** Lets go of the last receive's array (a thread's reused target must not keep it alive). */
    void clear()
    {
        array = null;
        view = null;
        packed = null;
    }

    @Override
    public String refusal(final Incoming message)
    {
        if (message.typeCode != kind.code && !(message.numEls == 0 && message.typeCode < 0))
        {
            return "type mismatch: rank " + message.source + " sent " + message.numEls + " elements of mpjbuf type " +
                message.typeCode + (message.dynamicBytes > 0 ? " (objects)" : "") + " (tag " + message.tag +
                "), but the receive takes " + kind;
        }
        return message.numEls > count || message.elements && message.staticBytes > (long)count * kind.bytes() ?
            "message truncated: rank " + message.source + " sent " + message.numEls + " " +
            kind + " elements (tag " + message.tag + ")" : null;
    }

    @Override
    public void bind(final Incoming message)
    {
        packed = message.elements ? null : new byte[(int)message.totalBytes()];
    }

    @Override
    public void accept(final long position, final MemorySegment source, final long at, final int length)
    {
        if (packed == null && position % kind.bytes() == 0 && length % kind.bytes() == 0)
        {
            kind.copyIn(source, at, array, index + (int)(position / kind.bytes()), length / kind.bytes());
        }
        else if (packed == null)
        {
            MemorySegment.copy(source, at, view(), start + position, length);
        }
        else
        {
            MemorySegment.copy(source, at, MemorySegment.ofArray(packed), position, length);
        }
    }

    @Override
    public MemorySegment directTarget(final Incoming message)
    {
        return null;
    }

    @Override
    public void finish(final Incoming message, final Status status)
    {
        if (packed != null && message.numEls > 0)
        {
            // The first section, as Buffer.getSectionHeader reads it: type code, padding, element count.
            final MemorySegment bytes = MemorySegment.ofArray(packed);
            final int elements = bytes.get(PACKED_INT, 4);
            if (bytes.get(ValueLayout.JAVA_BYTE, 0) != kind.code || elements != message.numEls ||
                ElementKind.SECTION_HEADER_BYTES + (long)elements * kind.bytes() > message.staticBytes)
            {
                throw new XDevException("shm device: the packed message from rank " + message.source + " (tag " +
                    message.tag + ") does not hold " + message.numEls + " " + kind + " elements in its first section");
            }
            kind.unpack(bytes, ElementKind.SECTION_HEADER_BYTES, view(), start, elements);
        }
        else if (packed == null && (long)message.numEls * kind.bytes() != message.staticBytes)
        {
            throw new XDevException("shm device: rank " + message.source + " announced " + message.numEls + " " +
                kind + " elements in " + message.staticBytes + " bytes (corrupted queue?)");
        }
        packed = null;
        status.source = commRankOf[message.source];
        status.numEls = message.numEls;
        status.count = message.numEls;
        status.type = kind.type;
    }

    private MemorySegment view()
    {
        if (view == null)
        {
            view = kind.view(array);
        }
        return view;
    }

    @Override
    public String describeRoom()
    {
        return "room for " + count + " " + kind + " elements";
    }
}
