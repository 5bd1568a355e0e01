/**
 * One device path's presence work at a time, in the order udev reported it, with a generation
 * bumped the moment a removal arrives (not when its turn comes). Work for an insertion awaits
 * probes; after each await it asks `current()` and drops itself once a removal came in meanwhile,
 * so a pull that settles mid-probe is neither lost nor undone by the insertion finishing late.
 */
export function createPresenceQueue() {
  const paths = new Map<string, { tail: Promise<void>; generation: number; queued: number }>();
  return {
    /** Queues `work` behind the path's earlier work; settles as it does (a failure never holds up the work queued after it). */
    run(devpath: string, removal: boolean, work: (current: () => boolean) => Promise<void>): Promise<void> {
      const path = paths.get(devpath) ?? { tail: Promise.resolve(), generation: 0, queued: 0 };
      paths.set(devpath, path);
      if (removal) path.generation++;
      const generation = path.generation;
      path.queued++;
      const done = path.tail.then(() => work(() => path.generation === generation));
      path.tail = done
        .catch(() => undefined)
        .finally(() => {
          if (--path.queued === 0 && paths.get(devpath) === path) paths.delete(devpath);
        });
      return done;
    },
  };
}
