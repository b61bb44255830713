import { cn } from "@/components/class-names";

const TONE: Record<string, string> = {
  confirmed: "bg-emerald-100 text-emerald-900",
  succeeded: "bg-emerald-100 text-emerald-900",
  credited: "bg-emerald-100 text-emerald-900",
  pending: "bg-sky-100 text-sky-900",
  confirming: "bg-sky-100 text-sky-900",
  awaiting_payment: "bg-amber-100 text-amber-900",
  intent_created: "bg-slate-100 text-slate-800",
  expired: "bg-slate-200 text-slate-800",
  failed: "bg-red-100 text-red-900",
  orphaned: "bg-red-100 text-red-900",
};

/** A status as a small colored label (the word itself carries the meaning, not the color). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      data-status-badge={status}
      className={cn(
        "inline-block whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium",
        TONE[status] ?? "bg-slate-100 text-slate-800",
      )}
    >
      {status.replace(/_/g, " ")}
    </span>
  );
}

/** A UTC timestamp as "YYYY-MM-DD HH:MM:SS UTC" in a <time>. */
export function UtcTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{iso.replace("T", " ").slice(0, 19)} UTC</time>;
}
