"use client";
import { useActionState } from "react";
import { cn } from "@/components/class-names";

export type SandboxPayResult = { ok: true; txHash: string } | { ok: false; message: string } | null;

/** Sandbox only: pays this payment with a real transfer from a fresh sandbox wallet (the simulate helper). */
export function SandboxPayButton({ action }: { action: (previous: SandboxPayResult) => Promise<SandboxPayResult> }) {
  const [result, submit, pending] = useActionState(action, null);
  return (
    <form action={submit}>
      <button
        type="submit"
        disabled={pending}
        className={cn(
          "w-full rounded-xl border border-amber-500 bg-amber-100 " +
            "px-4 py-3 font-medium text-amber-950 hover:bg-amber-200",
          "focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-600",
          "disabled:opacity-60",
        )}
      >
        {pending ? "Sending from the sandbox wallet…" : "Pay with sandbox wallet"}
      </button>
      <p aria-live="polite" className="mt-1 min-h-5 break-all text-xs text-slate-700">
        {result?.ok ? `Sent: ${result.txHash}` : result ? result.message : ""}
      </p>
    </form>
  );
}
