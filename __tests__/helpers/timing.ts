/**
 * CPU time of `work` in this process, in milliseconds. CPU time, not the clock:
 * the machines that run the suite are shared, and a linear piece of work that
 * waits for a core must not read as a quadratic one.
 */
export async function cpuMs(work: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** The same for synchronous work. */
export function cpuMsSync(work: () => unknown): number {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
