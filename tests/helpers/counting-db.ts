import { drizzle } from "drizzle-orm/node-postgres";
import { createPool, type Db } from "@/lib/platform/db/client";

/** A handle on the test database that counts the statements sent through it (a stream's reads). */
export function countingDb(): { db: Db; statements: () => number; close: () => Promise<void> } {
  const pool = createPool(process.env.DATABASE_URL!, 2);
  let statements = 0;
  const send = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    statements++;
    return send(...args);
  }) as typeof pool.query;
  return { db: drizzle(pool) as Db, statements: () => statements, close: () => pool.end() };
}
