import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Forbidden", robots: { index: false, follow: false } };

/** A dashboard page the signed-in user's role may not see (lib/identity/users/roles.ts). Status 403. */
export default function Forbidden() {
  return (
    <main className="min-h-screen bg-slate-100 px-4 py-16">
      <div className="mx-auto max-w-md rounded-2xl bg-white px-6 py-8 text-center shadow-sm ring-1 ring-slate-200">
        <h1 className="text-xl font-semibold text-slate-900">You do not have access to this page</h1>
        <p className="mt-2 text-sm text-slate-700">Your role does not include it. Ask an owner of your account.</p>
        <Link href="/dashboard" className="mt-4 inline-block text-sm font-medium text-slate-900 underline">
          Back to the dashboard
        </Link>
      </div>
    </main>
  );
}
