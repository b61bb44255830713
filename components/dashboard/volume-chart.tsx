"use client";

import dynamic from "next/dynamic";

import type { ChartDay } from "./volume-bars";

export type { ChartDay } from "./volume-bars";

// recharts (~100 KB gzip) is loaded only once the home page has rendered: it stays out of first-load JS.
const Bars = dynamic(() => import("./volume-bars"), {
  ssr: false,
  loading: () => <div className="h-48" />,
});

/** The chart is decoration for sighted users; the same numbers are in the section's table (aria-hidden here). */
export function VolumeChart({ days }: { days: ChartDay[] }) {
  return (
    <div aria-hidden="true" className="mt-3 h-48 w-full min-w-0" data-volume-chart>
      <Bars days={days} />
    </div>
  );
}
