"use client";

import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** One day of the home page's volume: its date and the USDT confirmed (6 decimals). */
export type ChartDay = { day: string; amount: string };

/**
 * The bars. Heights need numbers, so the exact strings become floats here for drawing only; the tooltip
 * and the table show the exact amounts.
 */
export default function VolumeBars({ days }: { days: ChartDay[] }) {
  const data = days.map((d) => ({ day: d.day.slice(5), amount: Number(d.amount), exact: d.amount }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: 0 }}>
        <XAxis dataKey="day" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={16} />
        <YAxis tick={{ fontSize: 11 }} width={48} allowDecimals={false} />
        <Tooltip
          formatter={(_value, _name, item) => [`${(item.payload as { exact: string }).exact} USDT`, "Confirmed"]}
        />
        <Bar dataKey="amount" fill="#0f172a" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
