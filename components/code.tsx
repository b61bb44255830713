import type { ReactNode } from "react";

/** Inline code in running text. */
export function Code({ children }: { children: ReactNode }) {
  return <code className="rounded bg-slate-200 px-1 py-0.5 font-mono text-[0.9em]">{children}</code>;
}
