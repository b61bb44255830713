import { describe, expect, it } from "vitest";
import { keyedRounds } from "@/lib/kernel/keyed-rounds";

type Answers = Map<string, PromiseSettledResult<string>>;
const answered = (items: string[], value: (item: string) => string): Answers =>
  new Map(items.map((item) => [item, { status: "fulfilled", value: value(item) }]));

/** A round runner that records its rounds and holds each until released. */
function recorder() {
  const rounds: { key: string; items: string[] }[] = [];
  const releases: (() => void)[] = [];
  let running = 0;
  let overlapped = false;
  const run = async (key: string, items: string[]): Promise<Answers> => {
    rounds.push({ key, items });
    if (++running > 1 && rounds.filter((r) => r.key === key).length > 1) overlapped = true;
    await new Promise<void>((resolve) => releases.push(resolve));
    running--;
    return answered(items, (item) => `${key}:${item}:${rounds.length}`);
  };
  const releaseAll = () => {
    for (const release of releases.splice(0)) release();
  };
  return { run, rounds, releaseAll, overlapped: () => overlapped };
}

/** Past the turn that closes a gathering round and into its run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("calls that arrive together share a round", () => {
  it(
    "calls made in one turn form one round, each gets its own item's answer; " + "a repeated item is run once",
    async () => {
      const r = recorder();
      const join = keyedRounds(r.run);
      const calls = ["a", "b", "a", "c"].map((item) => join("eth", item));
      await settle();
      expect(r.rounds).toEqual([{ key: "eth", items: ["a", "b", "c"] }]);
      r.releaseAll();
      expect(await Promise.all(calls)).toEqual(["eth:a:1", "eth:b:1", "eth:a:1", "eth:c:1"]);
    },
  );

  it(
    "one round at a time per key: calls during a round wait for it and form the next; " + "other keys run meanwhile",
    async () => {
      const r = recorder();
      const join = keyedRounds(r.run);
      const first = join("eth", "a");
      await settle();
      const later = [join("eth", "b"), join("eth", "c"), join("bnb", "d")];
      await settle();
      // eth's second round has not started (its first still runs); bnb's runs beside it.
      expect(r.rounds).toEqual([
        { key: "eth", items: ["a"] },
        { key: "bnb", items: ["d"] },
      ]);
      r.releaseAll();
      expect(await first).toBe("eth:a:2");
      await settle();
      expect(r.rounds[2]).toEqual({ key: "eth", items: ["b", "c"] });
      r.releaseAll();
      expect(await Promise.all(later)).toEqual(["eth:b:3", "eth:c:3", "bnb:d:2"]);
      expect(r.overlapped()).toBe(false);
    },
  );

  it(
    "an item's failure is its call's alone; a round that throws fails its calls, " + "and the next round still runs",
    async () => {
      let rounds = 0;
      const join = keyedRounds(async (_key, items: string[]): Promise<Answers> => {
        if (++rounds === 2) throw new Error("the database went away");
        return new Map(
          items.map((item): [string, PromiseSettledResult<string>] =>
            item === "bad"
              ? [item, { status: "rejected", reason: new Error(`${item} refused`) }]
              : [item, { status: "fulfilled", value: item }],
          ),
        );
      });
      const [good, bad] = await Promise.allSettled([join("k", "good"), join("k", "bad")]);
      expect(good).toEqual({ status: "fulfilled", value: "good" });
      expect(bad).toMatchObject({ status: "rejected", reason: { message: "bad refused" } });
      await expect(join("k", "x")).rejects.toThrow("the database went away");
      await expect(join("k", "y")).resolves.toBe("y");
    },
  );

  it("a runner that leaves an item unanswered fails that call, not silently", async () => {
    const join = keyedRounds(async (_key, items: string[]) => answered(items.slice(1), (i) => i));
    const [first, second] = await Promise.allSettled([join("k", "a"), join("k", "b")]);
    expect(first).toMatchObject({ status: "rejected", reason: { message: expect.stringContaining("no answer") } });
    expect(second).toEqual({ status: "fulfilled", value: "b" });
  });
});
