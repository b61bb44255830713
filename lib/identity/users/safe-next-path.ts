/** Where to go after step-up: a dashboard path only (never another site: `//evil`, `/\evil`, a scheme). */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !/^\/dashboard(?:[/?#]|$)/.test(next) || /[\\\s]/.test(next) || next.includes("//")) return "/dashboard";
  return next;
}
