"use client";

import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { StepUpState } from "@/app/dashboard/(signed-in)/step-up/actions";

/** Step-up with one of the user's passkeys; the WebAuthn client code loads only when pressed. */
export function StepUpPasskeyButton({
  next,
  options,
  prove,
}: {
  next: string;
  options: () => Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }>;
  prove: (challengeId: string, response: string, next: string) => Promise<StepUpState & { next?: string }>;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function run() {
    setPending(true);
    setError(null);
    try {
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const ceremony = await options();
      const answer = await startAuthentication({ optionsJSON: ceremony.options });
      const result = await prove(ceremony.challengeId, JSON.stringify(answer), next);
      if (result.next) {
        router.replace(result.next);
        router.refresh();
        return;
      }
      setError(result.error ?? null);
    } catch {
      setError("The passkey prompt was closed or failed. Try again.");
    }
    setPending(false);
  }
  return (
    <div className="space-y-1">
      <button
        type="button"
        onClick={run}
        disabled={pending}
        className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50 disabled:opacity-60"
      >
        Use a passkey
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
