"use client";

import { useActionState, useRef, useState } from "react";
import type { FactorState, PasskeyOptions } from "@/app/dashboard/(signed-in)/security/actions";
import { AuthenticatorAppConfirm } from "./authenticator-app-confirm";
import { RecoveryCodes } from "./recovery-codes";
import { StepUpLink } from "./step-up-link";

type Action = (prev: FactorState, form: FormData) => Promise<FactorState>;
const primary =
  "rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60";
const field = "mt-1 block w-full max-w-xs rounded-md border border-slate-300 px-3 py-2 text-base";

/**
 * Adding a second factor: an authenticator app (QR code, then its first code) or a passkey (the browser
 * makes one). With no factor yet the current password is asked; otherwise step-up. It stays mounted while
 * the page around it refreshes, so the recovery codes stay on screen.
 */
export function AddFactorPanel(props: {
  needsPassword: boolean;
  canAddApp: boolean;
  startApp: Action;
  confirmApp: Action;
  passkeyRegistration: (form: FormData) => Promise<PasskeyOptions>;
  savePasskey: (challengeId: string, response: string, name: string) => Promise<FactorState>;
}) {
  const form = useRef<HTMLFormElement>(null);
  const [started, startAction, starting] = useActionState(props.startApp, {});
  const [passkey, setPasskey] = useState<FactorState & { added?: boolean }>({});
  const [addingPasskey, setAddingPasskey] = useState(false);

  async function addPasskey() {
    if (!form.current) return;
    setAddingPasskey(true);
    const data = new FormData(form.current);
    try {
      const { startRegistration } = await import("@simplewebauthn/browser");
      const options = await props.passkeyRegistration(data);
      if (!options.ceremony) setPasskey(options);
      else {
        const answer = await startRegistration({ optionsJSON: options.ceremony.options });
        const saved = await props.savePasskey(
          options.ceremony.challengeId,
          JSON.stringify(answer),
          String(data.get("passkey-name") ?? ""),
        );
        setPasskey({ ...saved, added: !saved.error });
      }
    } catch {
      setPasskey({ error: "The passkey prompt was closed or failed. Try again." });
    }
    setAddingPasskey(false);
  }

  if (started.uri)
    return <AuthenticatorAppConfirm uri={started.uri} secret={started.secret ?? ""} confirm={props.confirmApp} />;
  // The latest attempt's refusal: the passkey's, unless the app's start came after it (it clears the passkey's).
  const state = passkey.error ? passkey : started;
  return (
    <div className="space-y-3">
      {passkey.added && <p className="text-sm font-medium text-emerald-800">Passkey added.</p>}
      {passkey.codes && <RecoveryCodes codes={passkey.codes} />}
      <form ref={form} action={startAction} onSubmit={() => setPasskey({})} className="space-y-3">
        {props.needsPassword && (
          <div>
            <label htmlFor="factor-password" className="block text-sm font-medium text-slate-800">
              Current password
            </label>
            <input
              id="factor-password"
              name="password"
              type="password"
              autoComplete="current-password"
              aria-invalid={state.field === "password" ? true : undefined}
              aria-describedby={state.field === "password" ? "factor-error" : undefined}
              className={field}
            />
          </div>
        )}
        {state.error && (
          <p id="factor-error" role="alert" className="text-sm text-red-700">
            {state.error} {state.stepUp && <StepUpLink next="/dashboard/security" />}
          </p>
        )}
        <div className="flex flex-wrap items-end gap-3">
          {props.canAddApp && (
            <button type="submit" disabled={starting} className={primary}>
              Add an authenticator app
            </button>
          )}
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="passkey-name" className="block text-sm font-medium text-slate-800">
              Passkey name
            </label>
            <input
              id="passkey-name"
              name="passkey-name"
              placeholder="e.g. Work laptop"
              maxLength={60}
              className={field}
            />
          </div>
          <button type="button" onClick={addPasskey} disabled={addingPasskey} className={primary}>
            Add a passkey
          </button>
        </div>
      </form>
    </div>
  );
}
