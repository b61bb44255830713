import Link from "next/link";
import { StepUpForm } from "@/components/dashboard/step-up-form";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { getDb } from "@/lib/platform/db/client";
import { userFactors } from "@/lib/identity/users/factors/second-factor";
import { safeNextPath } from "@/lib/identity/users/safe-next-path";
import { STEP_UP_WINDOW_MS } from "@/lib/identity/users/step-up";
import { StepUpPasskeyButton } from "@/components/dashboard/step-up-passkey-button";
import { stepUp, stepUpPasskey, stepUpPasskeyOptions } from "./actions";

export const dynamic = "force-dynamic";

/** Step-up: a second factor now, for the next 5 minutes of sensitive actions (docs/DASHBOARD.md#step-up). */
export default async function StepUpPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const user = await requirePageUser();
  const next = safeNextPath((await searchParams).next);
  const minutes = STEP_UP_WINDOW_MS / 60_000;
  const factors = await userFactors(getDb(), user.id);
  return (
    <div className="max-w-md space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Confirm it's you</h1>
      {factors.totp || factors.passkeys > 0 ? (
        <>
          <p className="text-sm text-slate-700">
            Live keys, live webhook endpoints, payouts and changes to your second factors need a second factor within
            the last {minutes} minutes.
          </p>
          {factors.passkeys > 0 && (
            <StepUpPasskeyButton next={next} options={stepUpPasskeyOptions} prove={stepUpPasskey} />
          )}
          <StepUpForm action={stepUp} next={next} />
        </>
      ) : (
        <p className="text-sm text-slate-700">
          This needs a second factor, and your account has none yet.{" "}
          <Link href="/dashboard/security" className="font-medium text-slate-900 underline">
            Add one under Security
          </Link>
          , then come back.
        </p>
      )}
    </div>
  );
}
