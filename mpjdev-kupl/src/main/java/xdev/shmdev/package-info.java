/**
 * The {@code shm} device of MPJ Express: point-to-point messages between JVM processes of one
 * node through shared-memory queues ({@link xdev.shmdev.ShmDevice}), found by name through
 * {@link xdev.shmdev.DeviceProvider}. Jobs are started by {@code kupl.launch.ShmJob}.
 */
package xdev.shmdev;
