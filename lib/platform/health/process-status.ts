import fs from "node:fs";
import path from "node:path";

/** What `npm start`'s supervisor knows of one of its processes (scripts/lib/supervisor.ts). */
export interface ProcessState {
  state: "starting" | "up" | "restarting" | "failed" | "stopped";
  /** When it entered that state (ISO). */
  since: string;
  restarts: number;
  lastExit: string | null;
}

const FILE = "processes.json";

/**
 * The supervisor's view of its processes, written to DATA_DIR/processes.json on every change so the web's
 * `/api/health` can say which process is down. Written whole, then renamed, so a reader never sees half a
 * file; `supervisor` is the writer's pid, so a file left by a supervisor that is gone is ignored.
 */
export function processStatusWriter(dataDir: string): (name: string, state: ProcessState) => void {
  const file = path.join(dataDir, FILE);
  const processes: Record<string, ProcessState> = {};
  return (name, state) => {
    processes[name] = state;
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, JSON.stringify({ supervisor: process.pid, processes }, null, 2));
      fs.renameSync(tmp, file);
    } catch (err) {
      console.error(`[start] could not write ${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

/** The supervised processes' states, or null when no live supervisor wrote them (a web started alone). */
export function readProcessStatus(dataDir: string): Record<string, ProcessState> | null {
  try {
    const { supervisor, processes } = JSON.parse(fs.readFileSync(path.join(dataDir, FILE), "utf8")) as {
      supervisor: number;
      processes: Record<string, ProcessState>;
    };
    process.kill(supervisor, 0); // throws when that supervisor is gone
    return processes;
  } catch {
    return null;
  }
}
