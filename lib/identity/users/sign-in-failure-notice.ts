import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { sendMail } from "@/lib/platform/mail/send-mail";

export interface SignInFailureNotice {
  user_id: string;
  kind: "password" | "code" | "passkey";
  failures: number;
  client: string;
  at: string;
}

/** The email to a user whose account someone keeps failing to sign in to: what, from where, what to do. */
export function signInFailureEmail(input: SignInFailureNotice & { merchantName: string }) {
  const what = input.kind === "code" ? "wrong authentication codes after the right password" : "wrong passwords";
  return {
    subject: `Failed sign-ins to your ${input.merchantName} dashboard account`,
    text: [
      `${input.failures} ${what} were entered for your account on ${input.merchantName}'s payments dashboard,`,
      `from ${input.client}, by ${input.at.slice(0, 16).replace("T", " ")} UTC.`,
      "",
      "Your account is not locked: sign-ins from that address are slowed down, yours from elsewhere are not.",
      input.kind === "code"
        ? "Whoever made them knew your password: change it now, and sign out of every session under Security."
        : "If this was not you, no action is needed; " +
          "a second factor (authenticator app or passkey) keeps a guessed password useless.",
    ].join("\n"),
  };
}

/** Sends the notice (job `notify_sign_in_failures`); a user removed since is skipped. */
export async function sendSignInFailureNotice(db: Db, notice: SignInFailureNotice): Promise<boolean> {
  const [user] = await query<{ email: string; merchant_name: string }>(
    db,
    "select u.email, m.name as merchant_name from users u join merchants m on m.id = u.merchant_id where u.id = $1",
    [notice.user_id],
  );
  if (!user) return false;
  await sendMail({ to: user.email, ...signInFailureEmail({ ...notice, merchantName: user.merchant_name }) });
  return true;
}
