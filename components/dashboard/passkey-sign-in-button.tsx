"use client";

import type { PasskeySignInCeremony } from "@/app/dashboard/sign-in/actions";
import { signIn } from "next-auth/react";
import { signInErrorMessage } from "@/lib/identity/users/sign-in-messages";
import { usePasskeyAssertion } from "./use-passkey-assertion";
import { cn } from "@/components/class-names";

/**
 * "Sign in with a passkey": the browser asks the user's device (PIN, fingerprint, face), and next-auth's
 * passkey provider checks its answer. The WebAuthn client code loads only when pressed.
 */
export function PasskeySignInButton({ options }: { options: () => Promise<PasskeySignInCeremony> }) {
  const { error, pending, assert } = usePasskeyAssertion(
    "The passkey prompt was closed or failed. Try again, or sign in with your password.",
  );
  const run = () =>
    assert(options, async (challengeId, response) => {
      const result = await signIn("passkey", { challengeId, response, redirect: false });
      return result?.ok && !result.error
        ? { next: "/dashboard" }
        : { error: signInErrorMessage(result?.error ?? "invalid_passkey") };
    });

  return (
    <div className="space-y-1">
      <button
        type="button"
        onClick={run}
        disabled={pending}
        aria-describedby={error ? "passkey-error" : undefined}
        className={cn(
          "w-full rounded-md border border-slate-300 bg-white px-4 py-2 font-medium",
          "text-slate-900 hover:bg-slate-50 disabled:opacity-60",
        )}
      >
        Use a passkey
      </button>
      {error && (
        <p id="passkey-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
