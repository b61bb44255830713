"use client";

import { useState } from "react";
import { EVENT_TYPES } from "@/lib/notify/events/event-types";

/**
 * "All events" or chosen types (an empty filter means all, as in the API). The checkboxes are usable only
 * with "Chosen event types", so what is ticked is what will be sent. Inputs are uncontrolled (React resets
 * a submitted form to their defaults): give the component a `key` of its defaults so it remounts with them.
 */
export function EventFilterFields({
  filter,
  events,
  error,
}: {
  filter: "all" | "chosen";
  events: readonly string[];
  error?: string;
}) {
  const [chosen, setChosen] = useState(filter === "chosen");
  return (
    <fieldset className="space-y-2" aria-describedby={error ? "events-error" : undefined}>
      <legend className="text-sm font-medium text-slate-900">Events to send</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <label className="flex items-center gap-2">
          <input type="radio" name="filter" value="all" defaultChecked={!chosen} onChange={() => setChosen(false)} />
          All events
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="filter" value="chosen" defaultChecked={chosen} onChange={() => setChosen(true)} />
          Chosen event types
        </label>
      </div>
      <div className="grid gap-1 text-sm sm:grid-cols-2">
        {EVENT_TYPES.map((type) => (
          <label key={type} className={`flex items-center gap-2 ${chosen ? "" : "text-slate-400"}`}>
            <input
              type="checkbox"
              name="events"
              value={type}
              defaultChecked={events.includes(type)}
              disabled={!chosen}
            />
            <span className="font-mono text-xs">{type}</span>
          </label>
        ))}
      </div>
      {error && (
        <p id="events-error" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** A key that changes whenever the defaults do, so EventFilterFields remounts with them. */
export const filterKey = (filter: string, events: readonly string[]) => `${filter}:${events.join()}`;
