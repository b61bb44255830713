const link = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800";

/**
 * Downloads the list as CSV with the page's own filters (its cursor left out): exactly what the screen pages
 * through. A plain link, so it works without JavaScript; the answer is a file, never a page.
 */
export function ExportLink({
  path,
  query,
  label = "Export CSV",
}: {
  path: string;
  query: Record<string, string | undefined>;
  label?: string;
}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v && k !== "after" && k !== "before" && k !== "starting_after") params.set(k, v);
  const search = params.size ? `?${params}` : "";
  return (
    <a href={`${path}/export${search}`} download className={link} data-export>
      {label}
    </a>
  );
}
