"use client";

import { useActionState } from "react";
import type { FilterState } from "@/app/dashboard/(signed-in)/webhooks/actions";
import { EventFilterFields, filterKey } from "./event-filter-fields";

/** Edits an endpoint's event filter. */
export function EditFilterForm({
  action,
  id,
  events,
}: {
  action: (prev: FilterState, form: FormData) => Promise<FilterState>;
  id: string;
  events: readonly string[];
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const values = state.values ?? { filter: events.length > 0 ? ("chosen" as const) : ("all" as const), events };
  return (
    <form action={formAction} className="space-y-3">
      <input type="hidden" name="id" value={id} />
      <EventFilterFields
        key={filterKey(values.filter, values.events)}
        filter={values.filter}
        events={values.events}
        error={state.errors?.events}
      />
      <button
        type="submit"
        disabled={pending}
        className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
      >
        Save filter
      </button>
      {state.message && (
        <p role="status" className="text-sm text-slate-700">
          {state.message}
        </p>
      )}
      {state.errors?.form && (
        <p role="alert" className="text-sm text-red-700">
          {state.errors.form}
        </p>
      )}
    </form>
  );
}
