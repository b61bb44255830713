import { ApiError } from "@/lib/api/errors";
import { DashboardForbiddenError, type DashboardActor } from "@/lib/dashboard/dashboard-actor";
import type { Permission } from "@/lib/users/roles";
import { actorOf, ForbiddenActionError, requireActionUser } from "./guard";
import { dashboardMode } from "./mode";

/** requireActionUser, then who acts, with which role, in the selected mode (for lib/dashboard mutations). */
export async function requireActionActor(permission: Permission): Promise<DashboardActor> {
  const user = await requireActionUser(permission);
  return {
    ...(await actorOf(user)),
    role: user.role,
    mode: await dashboardMode(),
    secondFactorAt: user.secondFactorAt,
  };
}

/**
 * The message an action shows for an error it expects: a role refused, or an API error (not found, a
 * refused request). Anything else (and Next's redirects) is rethrown.
 */
export function actionErrorMessage(err: unknown): string {
  if (err instanceof ForbiddenActionError || err instanceof DashboardForbiddenError) return err.message;
  if (err instanceof ApiError && err.status < 500) return err.message;
  throw err;
}
