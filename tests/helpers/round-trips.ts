import pg from "pg";

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * Counts database round trips in this process: a statement sent while its connection has none in flight
 * starts one; statements pipelined behind it (sent before its answer came) share it.
 */
export function countRoundTrips() {
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  const inFlight = new WeakMap<object, number>();
  let trips = 0;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const n = inFlight.get(this) ?? 0;
    if (n === 0) trips++;
    inFlight.set(this, n + 1);
    const settled = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (...cbArgs: unknown[]) => {
        settled();
        return (last as (...a: unknown[]) => unknown)(...cbArgs);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args) as Promise<unknown> | undefined;
    result?.then(settled, settled);
    return result;
  };
  return {
    /** Round trips since the last call. */
    take(): number {
      const n = trips;
      trips = 0;
      return n;
    },
    restore: () => {
      proto.query = original;
    },
  };
}
