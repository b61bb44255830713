import { type Chain, CHAINS } from "@/lib/chains/chains";
import type { Mode } from "@/lib/kernel/mode";
import { utcDay } from "@/lib/kernel/schemas/list-filters";
import type { Db } from "@/lib/platform/db/client";
import { buildStatement } from "@/lib/reports/statements/build-statement";

const DAY_MS = 86_400_000;

/**
 * The statement page: `from` and `to` are UTC days, both included (the API's `to` is the day after); the default
 * is this month so far. An unreadable day is a message under its field.
 */
export async function loadStatementPage(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  q: Record<string, string | undefined>,
  now = new Date(),
) {
  const errors: Partial<Record<"from" | "to" | "chain", string>> = {};
  const today = now.toISOString().slice(0, 10);
  const fromText = q.from || `${today.slice(0, 7)}-01`;
  const toText = q.to || today;
  const from = utcDay(fromText);
  const to = utcDay(toText);
  if (!from) errors.from = "Enter a date as YYYY-MM-DD.";
  if (!to) errors.to = "Enter a date as YYYY-MM-DD.";
  if (from && to && to < from) errors.to = "The end date must not be before the start date.";
  const chain = q.chain && (CHAINS as readonly string[]).includes(q.chain) ? (q.chain as Chain) : undefined;
  if (q.chain && !chain) errors.chain = "Choose a network from the list.";
  const form = { from: fromText, to: toText, chain: chain ?? "" };
  if (Object.keys(errors).length) return { form, errors, statement: null };
  const statement = await buildStatement(db, owner, {
    chain,
    from: from!,
    to: new Date(to!.getTime() + DAY_MS),
  });
  return { form, errors, statement };
}
