import type { DayVolume } from "@/lib/money-in/payments/daily-volume";
import { totalVolume } from "@/lib/money-in/payments/daily-volume";
import { VolumeChart } from "./volume-chart";

/**
 * Confirmed volume per day over 30 days: a summary line, the chart (drawn in the browser, lazily: recharts is
 * only fetched by this page), and the same numbers as a table for screen readers.
 */
export function VolumeSection({ days, mode }: { days: DayVolume[]; mode: string }) {
  const payments = days.reduce((n, d) => n + d.payments, 0);
  const total = totalVolume(days);
  return (
    <div className="rounded-lg bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200">
      <p data-volume-total={total} className="text-sm text-slate-700">
        <span className={"font-mono text-base font-semibold text-slate-900 tabular-nums"}>{total} USDT</span> confirmed
        in {payments} {payments === 1 ? "payment" : "payments"} over the last 30 days ({mode}).
      </p>
      {payments === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          No confirmed payment yet in these 30 days. Create a payment with the API and pay it to see it here.
        </p>
      ) : (
        <VolumeChart days={days.map((d) => ({ day: d.day, amount: d.amount }))} />
      )}
      <table className="sr-only">
        <caption>Confirmed volume per day, last 30 days</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            <th scope="col">Volume (USDT)</th>
            <th scope="col">Payments</th>
          </tr>
        </thead>
        <tbody>
          {days
            .filter((d) => d.payments > 0)
            .map((d) => (
              <tr key={d.day} data-volume-day={d.day}>
                <td>{d.day}</td>
                <td>{d.amount}</td>
                <td>{d.payments}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
