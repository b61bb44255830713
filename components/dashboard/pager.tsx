import Link from "next/link";

const link = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800";

/** Previous / Next links of a cursor-paged list; the page's other query parameters (filters) are kept. */
export function Pager({
  path,
  query,
  previous,
  next,
}: {
  path: string;
  query: Record<string, string | undefined>;
  previous?: string;
  next?: string;
}) {
  if (!previous && !next) return null;
  const href = (cursor: Record<string, string>) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v && k !== "after" && k !== "before") params.set(k, v);
    for (const [k, v] of Object.entries(cursor)) params.set(k, v);
    return `${path}?${params}`;
  };
  return (
    <nav aria-label="Pages" className="flex justify-between gap-3">
      {previous ? (
        <Link href={href({ before: previous })} className={link} rel="prev">
          Previous
        </Link>
      ) : (
        <span />
      )}
      {next && (
        <Link href={href({ after: next })} className={link} rel="next">
          Next
        </Link>
      )}
    </nav>
  );
}
