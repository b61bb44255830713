"use client";

import { QRCodeSVG } from "qrcode.react";
import { useActionState } from "react";
import type { FactorState } from "@/app/dashboard/(signed-in)/security/actions";
import { RecoveryCodes } from "./recovery-codes";

/** The QR code (and the key to type) of a new authenticator app; its first code turns it on. */
export function AuthenticatorAppConfirm({
  uri,
  secret,
  confirm,
}: {
  uri: string;
  secret: string;
  confirm: (prev: FactorState, form: FormData) => Promise<FactorState>;
}) {
  const [confirmed, confirmAction, confirming] = useActionState(confirm, {});
  if (confirmed.codes)
    return (
      <div className="space-y-3">
        <p className="text-sm font-medium text-emerald-800">Authenticator app is on.</p>
        <RecoveryCodes codes={confirmed.codes} />
      </div>
    );
  return (
    <form action={confirmAction} className="space-y-3">
      <p className="text-sm text-slate-700">Scan this with your authenticator app, then enter the code it shows.</p>
      <div className="inline-block rounded-lg bg-white p-2 ring-1 ring-slate-200">
        <QRCodeSVG value={uri} size={176} level="M" title="QR code for your authenticator app" />
      </div>
      <p className="text-sm text-slate-700">
        Or type this key:{" "}
        <code className="break-all font-mono text-slate-900" data-testid="totp-secret">
          {secret}
        </code>
      </p>
      <div>
        <label htmlFor="totp-code" className="block text-sm font-medium text-slate-800">
          Code from the app
        </label>
        <input
          id="totp-code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          aria-invalid={confirmed.error ? true : undefined}
          aria-describedby={confirmed.error ? "totp-code-error" : undefined}
          className="mt-1 block w-full max-w-xs rounded-md border border-slate-300 px-3 py-2 text-base"
        />
        {confirmed.error && (
          <p id="totp-code-error" role="alert" className="mt-1 text-sm text-red-700">
            {confirmed.error}
          </p>
        )}
      </div>
      <button
        type="submit"
        disabled={confirming}
        className={
          "rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        }
      >
        Turn on
      </button>
    </form>
  );
}
