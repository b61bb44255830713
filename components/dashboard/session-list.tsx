import type { SessionRow } from "@/lib/identity/users/sessions";

const when = (d: Date) => `${d.toISOString().replace("T", " ").slice(0, 16)} UTC`;

/** The user's open sessions; every one but this browser's can be ended. */
export function SessionList({
  sessions,
  currentId,
  endAction,
}: {
  sessions: SessionRow[];
  currentId: string;
  endAction: (form: FormData) => Promise<void>;
}) {
  return (
    <ul className="divide-y divide-slate-200">
      {sessions.map((s) => (
        <li key={s.id} data-session={s.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
          <span className="min-w-0 flex-1 break-words text-slate-800">
            {s.id === currentId && <strong>This browser · </strong>}
            {s.userAgent ?? "Unknown browser"} · {s.ip ?? "unknown IP"}
            <span className="block text-xs text-slate-600">
              Signed in {when(s.createdAt)} · last active {when(s.lastSeenAt)}
            </span>
          </span>
          {s.id !== currentId && (
            <form action={endAction}>
              <input type="hidden" name="session" value={s.id} />
              <button
                type="submit"
                aria-label={`End session signed in ${when(s.createdAt)}`}
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-900"
              >
                End session
              </button>
            </form>
          )}
        </li>
      ))}
    </ul>
  );
}
