import type { Metadata } from "next";

export const metadata: Metadata = { title: "Not found", robots: { index: false, follow: false } };

/** Unknown checkout, payment link or page: said plainly, without revealing what exists. */
export default function NotFound() {
  return (
    <main className="min-h-screen bg-slate-100 px-4 py-16">
      <div className="mx-auto max-w-md rounded-2xl bg-white px-6 py-8 text-center shadow-sm ring-1 ring-slate-200">
        <h1 className="text-xl font-semibold text-slate-900">Page not found</h1>
        <p className="mt-2 text-sm text-slate-700">
          This payment page does not exist. Check the link you were given, or ask the merchant for a new one.
        </p>
      </div>
    </main>
  );
}
