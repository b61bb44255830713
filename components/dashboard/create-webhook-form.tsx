"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { CreateWebhookState } from "@/app/dashboard/(signed-in)/webhooks/actions";
import { CopyButton } from "@/components/checkout/copy-button";
import { EventFilterFields, filterKey } from "./event-filter-fields";
import { STEP_UP_MESSAGE } from "@/lib/identity/users/step-up-message";
import { StepUpLink } from "./step-up-link";

/** "Add endpoint": URL and event filter; the signing secret shown once, with a copy button. */
export function CreateWebhookForm({
  action,
}: {
  action: (prev: CreateWebhookState, form: FormData) => Promise<CreateWebhookState>;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const errors = state.errors ?? {};
  const values = state.values ?? { url: "", filter: "all" as const, events: [] };
  return (
    <form action={formAction} className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold text-slate-900">Add an endpoint</h2>
      <div>
        <label htmlFor="webhook-url" className="block text-sm font-medium text-slate-900">
          Endpoint URL
        </label>
        <input
          id="webhook-url"
          name="url"
          type="url"
          inputMode="url"
          required
          key={values.url}
          defaultValue={values.url}
          placeholder="https://example.com/webhooks"
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={errors.url ? "url-error" : undefined}
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
        {errors.url && (
          <p id="url-error" className="mt-1 text-sm text-red-700">
            {errors.url}
          </p>
        )}
      </div>
      <EventFilterFields
        key={filterKey(values.filter, values.events)}
        filter={values.filter}
        events={values.events}
        error={errors.events}
      />
      <button
        type="submit"
        disabled={pending}
        className={
          "rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        }
      >
        Add endpoint
      </button>
      {errors.form && (
        <p role="alert" className="text-sm text-red-700">
          {errors.form} {errors.form === STEP_UP_MESSAGE && <StepUpLink next="/dashboard/webhooks" />}
        </p>
      )}
      {state.secret && state.endpointId && (
        <div role="status" className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm">
          <label htmlFor="new-webhook-secret" className="font-medium text-emerald-900">
            Signing secret (shown only this once)
          </label>
          <div className="flex gap-2">
            <input
              id="new-webhook-secret"
              readOnly
              value={state.secret}
              className="block min-w-0 flex-1 rounded border border-emerald-300 bg-white px-2 py-1 font-mono text-xs"
            />
            <CopyButton value={state.secret} label="Copy signing secret" />
          </div>
          <Link href={`/dashboard/webhooks/${state.endpointId}`} className="text-emerald-900 underline">
            Open endpoint {state.endpointId}
          </Link>
        </div>
      )}
    </form>
  );
}
