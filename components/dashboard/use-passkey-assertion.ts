"use client";

import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useRouter } from "next/navigation";
import { useState } from "react";

type Ceremony = { challengeId: string; options: PublicKeyCredentialRequestOptionsJSON } | { error: string };
type Outcome = { next?: string; error?: string };

/**
 * One passkey assertion, as the sign-in and step-up buttons run it: the server's challenge, the browser's
 * prompt (its WebAuthn code loaded only now), then `answer` checks it; on success the page goes to `next`.
 */
export function usePasskeyAssertion(failedMessage: string) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function assert(
    options: () => Promise<Ceremony>,
    answer: (challengeId: string, response: string) => Promise<Outcome>,
  ) {
    setPending(true);
    setError(null);
    try {
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const ceremony = await options();
      const outcome =
        "error" in ceremony
          ? { error: ceremony.error }
          : await answer(
              ceremony.challengeId,
              JSON.stringify(await startAuthentication({ optionsJSON: ceremony.options })),
            );
      if (outcome.next) {
        router.replace(outcome.next);
        router.refresh();
        return;
      }
      setError(outcome.error ?? null);
    } catch {
      setError(failedMessage);
    }
    setPending(false);
  }

  return { error, pending, assert };
}
