/** The error next-auth passes back when the limits refuse a sign-in: `limited:<milliseconds>`. */
export const LIMITED_PREFIX = "limited:";

/** The password was right; the user has a second factor, so the form asks for its code. */
export const SECOND_FACTOR_REQUIRED = "second_factor_required";

/** What the sign-in form says for next-auth's error code (no hint whether the email exists). */
export function signInErrorMessage(code: string): string {
  if (code.startsWith(LIMITED_PREFIX)) return waitMessage(Number(code.slice(LIMITED_PREFIX.length)) || 60_000);
  if (code === "CredentialsSignin") return "Wrong email or password.";
  if (code === SECOND_FACTOR_REQUIRED) return "Enter the code from your authenticator app, or a recovery code.";
  if (code === "invalid_passkey") return "That passkey was not accepted. Try again, or sign in with your password.";
  if (code === "invalid_code")
    return "Wrong code. Enter the current code from your authenticator app, or an unused recovery code.";
  return "Signing in failed. Try again in a moment.";
}

/** "Too many failed sign-ins. Try again in 15 minutes." (whole minutes, rounded up; seconds under one). */
export function waitMessage(waitMs: number): string {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const span =
    seconds < 60
      ? `${seconds} second${seconds === 1 ? "" : "s"}`
      : `${Math.ceil(seconds / 60)} minute${seconds > 60 ? "s" : ""}`;
  return `Too many failed sign-ins. Try again in ${span}.`;
}
