import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PasskeySignInButton } from "@/components/dashboard/passkey-sign-in-button";
import { SignInForm } from "@/components/dashboard/sign-in-form";
import { currentUser } from "@/lib/identity/auth/guard";
import { passkeySignInOptions } from "./actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sign in · Dashboard", robots: { index: false, follow: false } };

/**
 * The dashboard's sign-in (docs/DASHBOARD.md): email and password (then a second factor's code), or a passkey; a
 * signed-in user goes straight home.
 */
export default async function SignInPage() {
  if (await currentUser()) redirect("/dashboard");
  return (
    <main className="min-h-screen bg-slate-100 px-3 py-10 sm:py-16">
      <div className="mx-auto max-w-sm rounded-2xl bg-white px-5 py-6 shadow-sm ring-1 ring-slate-200 sm:px-6">
        <h1 className="text-xl font-semibold text-slate-900">Sign in to your dashboard</h1>
        <p className="mt-1 mb-5 text-sm text-slate-600">USDT Payments</p>
        <SignInForm />
        <p className="my-4 text-center text-sm text-slate-600">or sign in with a passkey</p>
        <PasskeySignInButton options={passkeySignInOptions} />
      </div>
    </main>
  );
}
