"use client";

import { QRCodeSVG } from "qrcode.react";
import { useActionState } from "react";
import type { CreateLinkState } from "@/app/dashboard/(signed-in)/links/actions";
import { CopyButton } from "@/components/checkout/copy-button";

const input = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm";

/** "Create link": amount and description; the new link's URL with copy and a QR code (as the checkout draws one). */
export function CreateLinkForm({
  action,
}: {
  action: (prev: CreateLinkState, form: FormData) => Promise<CreateLinkState>;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const errors = state.errors ?? {};
  return (
    <form action={formAction} className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold text-slate-900">Create a payment link</h2>
      <div>
        <label htmlFor="link-amount" className="block text-sm font-medium text-slate-900">
          Amount (USDT)
        </label>
        <input
          id="link-amount"
          name="amount"
          inputMode="decimal"
          required
          placeholder="25.00"
          aria-invalid={errors.amount ? true : undefined}
          aria-describedby={errors.amount ? "amount-error" : undefined}
          className={input}
        />
        {errors.amount && (
          <p id="amount-error" className="mt-1 text-sm text-red-700">
            {errors.amount}
          </p>
        )}
      </div>
      <div>
        <label htmlFor="link-description" className="block text-sm font-medium text-slate-900">
          Description (optional)
        </label>
        <input
          id="link-description"
          name="description"
          maxLength={500}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? "description-error" : undefined}
          className={input}
        />
        {errors.description && (
          <p id="description-error" className="mt-1 text-sm text-red-700">
            {errors.description}
          </p>
        )}
      </div>
      <button
        type="submit"
        disabled={pending}
        className={
          "rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        }
      >
        Create link
      </button>
      {errors.form && (
        <p role="alert" className="text-sm text-red-700">
          {errors.form}
        </p>
      )}
      {state.link && (
        <div role="status" className="space-y-3 rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm">
          <label htmlFor="new-link-url" className="font-medium text-emerald-900">
            Link for {state.link.amount} USDT (active for 30 minutes)
          </label>
          <div className="flex gap-2">
            <input
              id="new-link-url"
              readOnly
              value={state.link.url}
              className="block min-w-0 flex-1 rounded border border-emerald-300 bg-white px-2 py-1 font-mono text-xs"
            />
            <CopyButton value={state.link.url} label="Copy link URL" />
          </div>
          <div className="w-fit rounded-xl border border-slate-200 bg-white p-3">
            <QRCodeSVG value={state.link.url} size={176} level="M" title={`QR code: ${state.link.url}`} />
          </div>
        </div>
      )}
    </form>
  );
}
