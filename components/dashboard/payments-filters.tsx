import Link from "next/link";
import { PAYMENT_STATUSES } from "@/db/schema/payments";
import { CHAINS } from "@/lib/chains/chains";
import { NETWORK } from "@/lib/money-in/checkout/networks";

const field = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-base";
type Errors = Partial<Record<"status" | "chain" | "from" | "to" | "q", string>>;

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-700">
      {message}
    </p>
  ) : null;
}

/** The payments list's filters and search, as a plain GET form (works without JavaScript). */
export function PaymentsFilters({ query, errors }: { query: Record<string, string | undefined>; errors: Errors }) {
  const described = (name: keyof Errors) =>
    errors[name] ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {};
  return (
    <form
      method="get"
      aria-label="Filter payments"
      className="grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-3"
    >
      <div className="sm:col-span-2 lg:col-span-3">
        <label htmlFor="q" className="text-sm font-medium text-slate-800">
          Search
        </label>
        <input
          id="q"
          name="q"
          type="search"
          defaultValue={query.q ?? ""}
          placeholder="Payment id, deposit address or transaction hash"
          className={field}
          {...described("q")}
        />
        <FieldError id="q-error" message={errors.q} />
      </div>
      <div>
        <label htmlFor="status" className="text-sm font-medium text-slate-800">
          Status
        </label>
        <select id="status" name="status" defaultValue={query.status ?? ""} className={field} {...described("status")}>
          <option value="">Any status</option>
          {PAYMENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace(/_/g, " ")}
            </option>
          ))}
        </select>
        <FieldError id="status-error" message={errors.status} />
      </div>
      <div>
        <label htmlFor="chain" className="text-sm font-medium text-slate-800">
          Network
        </label>
        <select id="chain" name="chain" defaultValue={query.chain ?? ""} className={field} {...described("chain")}>
          <option value="">Any network</option>
          {CHAINS.map((c) => (
            <option key={c} value={c}>
              {NETWORK[c].name}
            </option>
          ))}
        </select>
        <FieldError id="chain-error" message={errors.chain} />
      </div>
      <div className="grid grid-cols-2 gap-3 sm:col-span-2 lg:col-span-1">
        <div className="min-w-0">
          <label htmlFor="from" className="text-sm font-medium text-slate-800">
            Created from
          </label>
          <input
            id="from"
            name="from"
            type="date"
            defaultValue={query.from ?? ""}
            className={field}
            {...described("from")}
          />
          <FieldError id="from-error" message={errors.from} />
        </div>
        <div className="min-w-0">
          <label htmlFor="to" className="text-sm font-medium text-slate-800">
            Created to
          </label>
          <input id="to" name="to" type="date" defaultValue={query.to ?? ""} className={field} {...described("to")} />
          <FieldError id="to-error" message={errors.to} />
        </div>
      </div>
      <div className="flex gap-2 sm:col-span-2 lg:col-span-3">
        <button
          type="submit"
          className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700"
        >
          Apply filters
        </button>
        <Link
          href="/dashboard/payments"
          className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800"
        >
          Clear
        </Link>
      </div>
    </form>
  );
}
