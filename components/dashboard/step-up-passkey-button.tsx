"use client";

import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import type { StepUpState } from "@/app/dashboard/(signed-in)/step-up/actions";
import { usePasskeyAssertion } from "./use-passkey-assertion";
import { cn } from "@/components/class-names";

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
  const { error, pending, assert } = usePasskeyAssertion("The passkey prompt was closed or failed. Try again.");
  const run = () => assert(options, (challengeId, response) => prove(challengeId, response, next));
  return (
    <div className="space-y-1">
      <button
        type="button"
        onClick={run}
        disabled={pending}
        className={cn(
          "rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium",
          "text-slate-900 hover:bg-slate-50 disabled:opacity-60",
        )}
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
