import { CopyButton } from "./copy-button";

/** A new secret key, shown only this once, selectable and with a copy button. */
export function NewSecret({ secret, id = "new-key-secret" }: { secret: string; id?: string }) {
  return (
    <div role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm">
      <label htmlFor={id} className="font-medium text-emerald-900">
        New secret key (shown only this once)
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          readOnly
          value={secret}
          className="block w-full min-w-0 rounded border border-emerald-300 bg-white px-2 py-1 font-mono text-xs"
        />
        <CopyButton value={secret} label="Copy secret" />
      </div>
    </div>
  );
}
