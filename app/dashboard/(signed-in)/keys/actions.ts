"use server";

import { actorOf, ForbiddenActionError, requireActionUser } from "@/lib/auth/guard";
import { dashboardMode } from "@/lib/auth/mode";
import { createDashboardKey, LIVE_KEYS_NOTE } from "@/lib/dashboard/api-keys";
import { getDb } from "@/lib/db/client";

export type CreateKeyState = { secret?: string; id?: string; error?: string };

/** Creates an API key in the selected mode (keys:write); the secret comes back once. */
export async function createKey(_prev: CreateKeyState, _form: FormData): Promise<CreateKeyState> {
  let user: Awaited<ReturnType<typeof requireActionUser>>;
  try {
    user = await requireActionUser("keys:write");
  } catch (err) {
    if (err instanceof ForbiddenActionError) return { error: err.message };
    throw err;
  }
  const mode = await dashboardMode();
  // Live keys need step-up (a second factor within 5 minutes), which is not built yet: CLI only until then.
  if (mode === "live") return { error: LIVE_KEYS_NOTE };
  const key = await createDashboardKey(getDb(), await actorOf(user), mode);
  return { id: key.id, secret: key.secret };
}
