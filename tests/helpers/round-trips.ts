import pg from "pg";
import { FEED_APPLICATION_NAME } from "@/lib/platform/db/change-feed";

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * Counts database round trips in this process: a statement sent while its connection has none in flight
 * starts one; statements pipelined behind it (sent before its answer came) share it. Requests' connections
 * only: the change feed's listening connection is not counted.
 */
export function countRoundTrips() {
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  const inFlight = new WeakMap<object, number>();
  let trips = 0;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    // The change feed's own connection (LISTEN, its liveness check) serves no request.
    if (
      (this as unknown as { connectionParameters?: { application_name?: string } }).connectionParameters
        ?.application_name === FEED_APPLICATION_NAME
    )
      return original.apply(this, args);
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
