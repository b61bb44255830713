import os from "node:os";

/** The machine's CPU time so far, summed over its cores (ms): busy and total. */
function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/**
 * How busy the whole machine's CPUs were from now until the returned function is called, in percent: a phase at
 * 95 % is bound by the CPU (running another beside it only slows both); one at 40 % mostly waits for blocks.
 */
export function measureCpuBusy(): () => number {
  const start = cpuTimes();
  return () => {
    const end = cpuTimes();
    const total = end.total - start.total;
    return total > 0 ? Math.round((100 * (end.busy - start.busy)) / total) : 0;
  };
}
