"use client";
import { useEffect, useState } from "react";

function remaining(expiresAt: string): number {
  return Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
}

function format(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

/** Time left to pay, updated every second; fixed-width digits so nothing moves. */
export function Countdown({ expiresAt }: { expiresAt: string }) {
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    setLeft(remaining(expiresAt));
    const timer = setInterval(() => setLeft(remaining(expiresAt)), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  return (
    <p className="text-sm text-slate-700">
      Time left to pay:{" "}
      <time dateTime={expiresAt} className="font-semibold tabular-nums text-slate-900" suppressHydrationWarning>
        {left === null ? "—" : format(left)}
      </time>
    </p>
  );
}
