/** The dashboard's outlined secondary button (white, slate border), shared by the forms' buttons. */
export const secondaryButton =
  "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm " +
  "font-medium text-slate-900 hover:bg-slate-50 disabled:opacity-60";
