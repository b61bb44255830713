"use client";

import type { PasskeySignInCeremony } from "@/app/dashboard/sign-in/actions";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { signInErrorMessage } from "@/lib/users/sign-in-messages";

/**
 * "Sign in with a passkey": the browser asks the user's device (PIN, fingerprint, face), and next-auth's
 * passkey provider checks its answer. The WebAuthn client code loads only when pressed.
 */
export function PasskeySignInButton({ options }: { options: () => Promise<PasskeySignInCeremony> }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function run() {
    setPending(true);
    setError(null);
    try {
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const ceremony = await options();
      if ("error" in ceremony) {
        setError(ceremony.error);
        setPending(false);
        return;
      }
      const answer = await startAuthentication({ optionsJSON: ceremony.options });
      const result = await signIn("passkey", {
        challengeId: ceremony.challengeId,
        response: JSON.stringify(answer),
        redirect: false,
      });
      if (result?.ok && !result.error) {
        router.replace("/dashboard");
        router.refresh();
        return;
      }
      setError(signInErrorMessage(result?.error ?? "invalid_passkey"));
    } catch {
      setError("The passkey prompt was closed or failed. Try again, or sign in with your password.");
    }
    setPending(false);
  }

  return (
    <div className="space-y-1">
      <button
        type="button"
        onClick={run}
        disabled={pending}
        aria-describedby={error ? "passkey-error" : undefined}
        className="w-full rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-900 hover:bg-slate-50 disabled:opacity-60"
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
