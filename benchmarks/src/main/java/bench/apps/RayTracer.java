package bench.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A Whitted ray tracer (Phong shading, shadows, mirror reflections) rendering a size x size
 * image of {@value #SPHERES_PER_SIDE}³ spheres lit by two lights, in the shape of the Java Grande
 * RayTracer kernel. Rows are dealt round-robin to the ranks (neighbouring rows cost alike, so
 * every rank gets its share of the busy ones); rank 0 gathers them ({@code Gather}).
 *
 * <p>Timed: rendering and the gather. Checked: rank 0 renders the image serially and requires
 * the same pixels (each pixel is computed by the same code from the same numbers, so they agree
 * exactly); the checksum of the image is printed.
 *
 * <pre>bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.apps.RayTracer [size [repetitions]]</pre>
 */
public final class RayTracer implements Kernel
{
    private final CommunicationClock communication = new CommunicationClock();
    static final int SPHERES_PER_SIDE = 4;
    static final int MAX_DEPTH = 3;
    private static final double EPSILON = 1e-9;
    private static final Scene SCENE = Scene.make();

    private final int size;
    private int rank;
    private int ranks;
    private int blockRows;
    private int[] mine;
    private int[] gathered;
    private int[] serialImage;

    /** A 3-vector; the tracer allocates these freely, as the classic benchmark does. */
    record Vec(double x, double y, double z)
    {
        Vec plus(final Vec o)
        {
            return new Vec(x + o.x, y + o.y, z + o.z);
        }

        Vec minus(final Vec o)
        {
            return new Vec(x - o.x, y - o.y, z - o.z);
        }

        Vec times(final double s)
        {
            return new Vec(x * s, y * s, z * s);
        }

        double dot(final Vec o)
        {
            return x * o.x + y * o.y + z * o.z;
        }

        Vec unit()
        {
            return times(1 / Math.sqrt(dot(this)));
        }
    }

    record Sphere(Vec centre, double radius, Vec colour, double reflectivity)
    {
        /** Distance along the ray (origin o, unit direction d) to the nearest hit in front, or infinity. */
        double hit(final Vec o, final Vec d)
        {
            final Vec oc = o.minus(centre);
            final double b = oc.dot(d);
            final double c = oc.dot(oc) - radius * radius;
            final double discriminant = b * b - c;
            if (discriminant < 0)
            {
                return Double.POSITIVE_INFINITY;
            }
            final double root = Math.sqrt(discriminant);
            final double near = -b - root;
            if (near > EPSILON)
            {
                return near;
            }
            final double far = -b + root;
            return far > EPSILON ? far : Double.POSITIVE_INFINITY;
        }
    }

    record Scene(List<Sphere> spheres, List<Vec> lights, Vec eye)
    {
        static Scene make()
        {
            final List<Sphere> spheres = new ArrayList<>();
            for (int i = 0; i < SPHERES_PER_SIDE; i++)
            {
                for (int j = 0; j < SPHERES_PER_SIDE; j++)
                {
                    for (int k = 0; k < SPHERES_PER_SIDE; k++)
                    {
                        final Vec centre = new Vec(i - 1.5, j - 1.5, k + 3.0);
                        final Vec colour = new Vec(0.3 + 0.2 * i, 0.3 + 0.2 * j, 0.3 + 0.2 * k);
                        spheres.add(new Sphere(centre, 0.35, colour, (i + j + k) % 3 == 0 ? 0.5 : 0.1));
                    }
                }
            }
            return new Scene(List.copyOf(spheres), List.of(new Vec(-6, 8, -4), new Vec(5, 3, -6)),
                new Vec(0, 0, -3));
        }
    }

    RayTracer(final int size)
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("ray tracer: size=" + size + " pixels must be at least 1");
        }
        this.size = size;
    }

    public static void main(final String[] args) throws Exception
    {
        KernelRank.main(Kernels.RAY, args);
    }

    @Override
    public void setUp(final Intracomm comm) throws MPIException
    {
        rank = comm.Rank();
        ranks = comm.Size();
        blockRows = (size + ranks - 1) / ranks;
        mine = new int[blockRows * size];
        // MPJ Express 0.44 copies into the receive buffer on every rank, not only at the root.
        gathered = new int[ranks * blockRows * size];
    }

    @Override
    public void run(final Intracomm comm) throws MPIException
    {
        for (int k = 0; k * ranks + rank < size; k++)
        {
            renderRow(k * ranks + rank, mine, k * size);
        }
        communication.start();
        comm.Gather(mine, 0, mine.length, MPI.INT, gathered, 0, mine.length, MPI.INT, 0);
        communication.stop();
    }

    /** Renders image row {@code y} into {@code out} from {@code offset}, one packed RGB int a pixel. */
    void renderRow(final int y, final int[] out, final int offset)
    {
        for (int x = 0; x < size; x++)
        {
            // The screen spans [-1, 1] on both axes at z = 0; rows go down from the top.
            final Vec onScreen = new Vec(2.0 * (x + 0.5) / size - 1, 1 - 2.0 * (y + 0.5) / size, 0);
            final Vec colour = trace(SCENE.eye(), onScreen.minus(SCENE.eye()).unit(), 0);
            out[offset + x] = pack(colour);
        }
    }

    private static int pack(final Vec colour)
    {
        return channel(colour.x()) << 16 | channel(colour.y()) << 8 | channel(colour.z());
    }

    private static int channel(final double value)
    {
        return (int)Math.round(255 * Math.min(1, Math.max(0, value)));
    }

    private static Vec trace(final Vec origin, final Vec direction, final int depth)
    {
        Sphere nearest = null;
        double distance = Double.POSITIVE_INFINITY;
        for (final Sphere sphere : SCENE.spheres())
        {
            final double t = sphere.hit(origin, direction);
            if (t < distance)
            {
                distance = t;
                nearest = sphere;
            }
        }
        if (nearest == null)
        {
            return new Vec(0.05, 0.05, 0.1);
        }
        final Vec point = origin.plus(direction.times(distance));
        final Vec normal = point.minus(nearest.centre()).unit();
        Vec colour = nearest.colour().times(0.1);
        for (final Vec light : SCENE.lights())
        {
            final Vec toLight = light.minus(point);
            final double lightDistance = Math.sqrt(toLight.dot(toLight));
            final Vec l = toLight.times(1 / lightDistance);
            final double diffuse = normal.dot(l);
            if (diffuse <= 0 || inShadow(point, l, lightDistance))
            {
                continue;
            }
            final Vec halfway = l.minus(direction).unit();
            final double specular = Math.pow(Math.max(0, normal.dot(halfway)), 32);
            colour = colour.plus(nearest.colour().times(0.7 * diffuse)).plus(new Vec(1, 1, 1).times(0.3 * specular));
        }
        if (depth < MAX_DEPTH && nearest.reflectivity() > 0)
        {
            final Vec reflected = direction.minus(normal.times(2 * direction.dot(normal)));
            colour = colour.times(1 - nearest.reflectivity())
                .plus(trace(point, reflected, depth + 1).times(nearest.reflectivity()));
        }
        return colour;
    }

    private static boolean inShadow(final Vec point, final Vec towardsLight, final double lightDistance)
    {
        for (final Sphere sphere : SCENE.spheres())
        {
            if (sphere.hit(point, towardsLight) < lightDistance)
            {
                return true;
            }
        }
        return false;
    }

    /** The image rendered in one process. */
    int[] serialRender()
    {
        final int[] image = new int[size * size];
        for (int y = 0; y < size; y++)
        {
            renderRow(y, image, y * size);
        }
        return image;
    }

    /** Orders hash of the pixels, so that a swapped pair of rows changes it. */
    static long checksum(final int[] image)
    {
        long sum = 0;
        for (final int pixel : image)
        {
            sum = 31 * sum + pixel;
        }
        return sum;
    }

    @Override
    public CommunicationClock communication()
    {
        return communication;
    }

    @Override
    public Check validate(final Intracomm comm) throws MPIException
    {
        if (rank != 0)
        {
            return null;
        }
        if (serialImage == null)
        {
            serialImage = serialRender();
        }
        // Row y came from rank y % ranks, its (y / ranks)-th row, at that rank's block in the gathered buffer.
        final int[] image = new int[size * size];
        for (int y = 0; y < size; y++)
        {
            System.arraycopy(gathered, ((y % ranks) * blockRows + y / ranks) * size, image, y * size, size);
        }
        int differing = 0;
        for (int p = 0; p < image.length; p++)
        {
            differing += image[p] == serialImage[p] ? 0 : 1;
        }
        return new Check(differing == 0, String.format(Locale.ROOT,
            "checksum %016x, serial render's %016x; %d of %d pixels differ", checksum(image), checksum(serialImage),
            differing, image.length));
    }
}
