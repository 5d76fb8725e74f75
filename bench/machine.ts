import os from "node:os";

/**
 * CPU count and load averages, printed with the results: benches on a shared
 * machine measure the neighbours too, and this says how much.
 */
export function machineLoad(): string {
  const [one, five] = os.loadavg();
  return `${os.cpus().length} CPUs, load average ${one?.toFixed(2)} (1 min), ${five?.toFixed(2)} (5 min)`;
}
