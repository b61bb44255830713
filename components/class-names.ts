/** Joins Tailwind class groups with single spaces, skipping falsy parts (`cond && "class"`). */
export function cn(...parts: (string | false | null | undefined)[]): string {
  return parts.filter(Boolean).join(" ");
}
