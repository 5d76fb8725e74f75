import type { Cluster } from "node:cluster";

/**
 * The primary of a multi-process server: forks the workers (they share the listening
 * port), replaces one that dies, and on SIGINT/SIGTERM stops them all and exits.
 */
export function superviseWorkers(cluster: Cluster, count: number, threadPool: string): void {
  let stopping = false;
  const fork = (index: number) => {
    const worker = cluster.fork({ GATEHOUSE_WORKER: String(index), UV_THREADPOOL_SIZE: threadPool });
    worker.on("exit", (code, signal) => {
      if (stopping) return;
      console.error(`gatehouse: worker ${index} exited (${signal ?? code}); starting a new one`);
      fork(index);
    });
  };
  for (let index = 1; index <= count; index++) fork(index);
  console.info(`gatehouse: ${count} worker processes, ${threadPool} hashing threads each`);

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const running = Object.values(cluster.workers ?? {});
    for (const worker of running) worker?.process.kill(signal);
    let left = running.length;
    if (left === 0) process.exit(0);
    for (const worker of running) worker?.once("exit", () => --left === 0 && process.exit(0));
    setTimeout(() => process.exit(1), 12_000).unref();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
