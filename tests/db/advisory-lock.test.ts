import { describe, expect, it } from "vitest";
import { createPool, getPool } from "@/lib/platform/db/client";
import { runAsLeader, tryAcquireLeadership, withAdvisoryLock } from "@/lib/platform/db/advisory-lock";

describe("leader election (advisory locks)", () => {
  it("only one contender leads; release hands leadership over", async () => {
    const name = `test-leader-${Date.now()}`;
    const first = await tryAcquireLeadership(getPool(), name);
    expect(first).not.toBeNull();
    expect(await tryAcquireLeadership(getPool(), name)).toBeNull();
    await first!.release();
    const second = await tryAcquireLeadership(getPool(), name);
    expect(second).not.toBeNull();
    await second!.release();
  });

  it("a leader whose process dies (connection gone) loses the lock to another instance", async () => {
    const name = `test-crash-${Date.now()}`;
    const otherInstance = createPool(process.env.DATABASE_URL!, 2);
    const leader = await tryAcquireLeadership(otherInstance, name);
    expect(leader).not.toBeNull();
    expect(await tryAcquireLeadership(getPool(), name)).toBeNull();
    // Kill the leader's backend as a crash would.
    await getPool().query(
      `select pg_terminate_backend(pid) from pg_locks
       where locktype = 'advisory' and granted and pid <> pg_backend_pid()
       and objid = ($1::bigint & x'ffffffff'::bigint)::oid`,
      [(await import("@/lib/platform/db/advisory-lock")).advisoryKey(name).toString()],
    );
    await leader!.lost;
    let taken = null;
    for (let i = 0; i < 20 && !taken; i++) {
      taken = await tryAcquireLeadership(getPool(), name);
      if (!taken) await new Promise((r) => setTimeout(r, 100));
    }
    expect(taken).not.toBeNull();
    await taken!.release();
    await otherInstance.end();
  });

  it("runAsLeader: of two loops exactly one works at a time, and the other takes over when it stops", async () => {
    const name = `test-loop-${Date.now()}`;
    const active = new Set<string>();
    let overlap = false;
    const worked: string[] = [];
    const stopA = new AbortController();
    const stopB = new AbortController();
    const loop = (id: string) => async (signal: AbortSignal) => {
      if (active.size > 0) overlap = true;
      active.add(id);
      worked.push(id);
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      active.delete(id);
    };
    const a = runAsLeader(getPool(), name, loop("a"), { stop: stopA.signal, retryMs: 50 });
    await new Promise((r) => setTimeout(r, 100));
    const b = runAsLeader(getPool(), name, loop("b"), { stop: stopB.signal, retryMs: 50 });
    await new Promise((r) => setTimeout(r, 300));
    expect(worked).toEqual(["a"]);
    stopA.abort();
    await a;
    for (let i = 0; i < 40 && worked.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(worked).toEqual(["a", "b"]);
    stopB.abort();
    await b;
    expect(overlap).toBe(false);
  });

  it(
    "runAsLeader: work that throws (a database restarting as the loop starts) " + "is led again, never abandoned",
    async () => {
      const name = `test-throw-${Date.now()}`;
      const stop = new AbortController();
      let runs = 0;
      const done = runAsLeader(
        getPool(),
        name,
        async () => {
          runs += 1;
          if (runs < 3) throw new Error("Connection terminated unexpectedly");
          stop.abort();
        },
        { stop: stop.signal, retryMs: 20 },
      );
      await done; // resolves (never rejects) once the third run stops it
      expect(runs).toBe(3);
      // Leadership was given up after each failed run: another contender can take it.
      const next = await tryAcquireLeadership(getPool(), name);
      expect(next).not.toBeNull();
      await next!.release();
    },
  );

  it("withAdvisoryLock serializes critical sections", async () => {
    const order: string[] = [];
    const section = (id: string) =>
      withAdvisoryLock(getPool(), "test-serial", async () => {
        order.push(`${id}:in`);
        await new Promise((r) => setTimeout(r, 50));
        order.push(`${id}:out`);
      });
    await Promise.all([section("x"), section("y")]);
    expect(order[0]!.split(":")[0]).toBe(order[1]!.split(":")[0]);
    expect(order[2]!.split(":")[0]).toBe(order[3]!.split(":")[0]);
  });
});
