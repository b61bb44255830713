"use client";
import { useState } from "react";
import { cn } from "@/components/class-names";

/** Copies `value`; says so for screen readers too. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          setCopied(false);
        }
      }}
      className={cn(
        "shrink-0 rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium",
        "text-slate-900 hover:bg-slate-50",
        "focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600",
      )}
      aria-label={label}
    >
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </button>
  );
}
