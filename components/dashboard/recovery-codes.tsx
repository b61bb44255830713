"use client";

import { CopyButton } from "@/components/checkout/copy-button";

/** New recovery codes, shown once: each signs in (or steps up) once when the app is not at hand. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm">
      <h3 className="font-medium text-emerald-900">Recovery codes (shown only this once)</h3>
      <p className="mt-1 text-emerald-900">
        Keep them somewhere safe. Each one works once, in place of your second factor.
      </p>
      <ol aria-label="Recovery codes" className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <div className="mt-2">
        <CopyButton value={codes.join("\n")} label="Copy recovery codes" />
      </div>
    </div>
  );
}
