"use server";

import { headers } from "next/headers";
import { getDb } from "@/lib/platform/db/client";
import { acceptInvitation } from "@/lib/identity/users/accept-invitation";
import { UserInputError } from "@/lib/identity/users/create-user";
import { MIN_PASSWORD_LENGTH } from "@/lib/identity/users/password";

export type AcceptState = {
  error?: string;
  field?: "password" | "confirmation" | "form";
  email?: string;
};

/**
 * Public (the invitation link is the credential): the token, a password and its confirmation → the user is
 * created in the inviting merchant with the invited role; then they sign in.
 */
export async function acceptInvite(_prev: AcceptState, form: FormData): Promise<AcceptState> {
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  if (password.length < MIN_PASSWORD_LENGTH)
    return { field: "password", error: `Use at least ${MIN_PASSWORD_LENGTH} characters.` };
  if (password !== String(form.get("confirmation") ?? ""))
    return { field: "confirmation", error: "The two passwords differ." };
  const h = await headers();
  try {
    const { email } = await acceptInvitation(getDb(), {
      token,
      password,
      ip: h.get("x-client-ip"),
      userAgent: h.get("user-agent"),
    });
    return { email };
  } catch (err) {
    if (err instanceof UserInputError) return { field: "form", error: err.message };
    throw err;
  }
}
