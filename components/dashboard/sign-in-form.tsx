"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { SECOND_FACTOR_REQUIRED, signInErrorMessage } from "@/lib/identity/users/sign-in-messages";

const field = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus:border-slate-600";

/**
 * Email and password through next-auth's Credentials provider (it fetches its CSRF token first). A user
 * with a second factor is then asked for its code (the password stays in this form's memory only). A
 * refusal is shown under the field it concerns; the limits' wait message says how long to wait.
 */
export function SignInForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [askCode, setAskCode] = useState(false);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: String(data.get("email") ?? ""),
      password: String(data.get("password") ?? ""),
      code: String(data.get("code") ?? ""),
      redirect: false,
    }).catch(() => undefined);
    if (result?.ok && !result.error) {
      router.replace("/dashboard");
      router.refresh();
      return;
    }
    setPending(false);
    if (result?.error === SECOND_FACTOR_REQUIRED) {
      setAskCode(true);
      return;
    }
    setError(signInErrorMessage(result?.error ?? "unavailable"));
  }

  const errorId = askCode ? "code-error" : "password-error";
  const errorText = error && (
    <p id={errorId} role="alert" className="mt-1 text-sm text-red-700">
      {error}
    </p>
  );
  return (
    // method="post": should the script not have loaded, a submit must never put the password in the URL.
    <form method="post" onSubmit={submit} className="space-y-4" noValidate>
      <div className={askCode ? "hidden" : undefined}>
        <label htmlFor="email" className="block text-sm font-medium text-slate-800">
          Email
        </label>
        <input id="email" name="email" type="email" autoComplete="username" required className={field} />
      </div>
      <div className={askCode ? "hidden" : undefined}>
        <label htmlFor="password" className="block text-sm font-medium text-slate-800">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={error && !askCode ? true : undefined}
          aria-describedby={error && !askCode ? "password-error" : undefined}
          className={field}
        />
        {!askCode && errorText}
      </div>
      {askCode && (
        <div>
          <label htmlFor="code" className="block text-sm font-medium text-slate-800">
            Authentication code
          </label>
          <p id="code-hint" className="mt-1 text-sm text-slate-600">
            The 6-digit code from your authenticator app, or one of your recovery codes.
          </p>
          <input
            id="code"
            name="code"
            autoComplete="one-time-code"
            inputMode="text"
            required
            // biome-ignore lint/a11y/noAutofocus: the one field of this step, shown right after the password
            autoFocus
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "code-hint code-error" : "code-hint"}
            className={field}
          />
          {errorText}
        </div>
      )}
      <button
        type="submit"
        disabled={pending}
        className={
          "w-full rounded-md bg-slate-900 px-4 py-2 font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        }
      >
        {askCode ? "Verify" : "Sign in"}
      </button>
    </form>
  );
}
