"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { signInErrorMessage } from "@/lib/users/sign-in-messages";

const field = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus:border-slate-600";

/**
 * Email and password through next-auth's Credentials provider (it fetches its CSRF token first). A refusal
 * is shown under the password; the limits' wait message says how long to wait.
 */
export function SignInForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: String(data.get("email") ?? ""),
      password: String(data.get("password") ?? ""),
      redirect: false,
    }).catch(() => undefined);
    if (result?.ok && !result.error) {
      router.replace("/dashboard");
      router.refresh();
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error ?? "unavailable"));
  }

  return (
    // method="post": should the script not have loaded, a submit must never put the password in the URL.
    <form method="post" onSubmit={submit} className="space-y-4" noValidate>
      <div>
        <label htmlFor="email" className="block text-sm font-medium text-slate-800">
          Email
        </label>
        <input id="email" name="email" type="email" autoComplete="username" required className={field} />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium text-slate-800">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "password-error" : undefined}
          className={field}
        />
        {error && (
          <p id="password-error" role="alert" className="mt-1 text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-slate-900 px-4 py-2 font-medium text-white hover:bg-slate-700 disabled:opacity-60"
      >
        Sign in
      </button>
    </form>
  );
}
