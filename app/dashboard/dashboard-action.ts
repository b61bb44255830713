import { type ActionRefusal, refusalOf } from "@/lib/identity/auth/action-actor";
import type { DashboardActor } from "@/lib/identity/auth/dashboard-actor";
import { actorOf, requireActionUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import type { Actor } from "@/lib/identity/users/audit";
import type { Permission } from "@/lib/identity/users/roles";
import type { SessionUser } from "@/lib/identity/users/sessions";
import { requireStepUp } from "@/lib/identity/users/step-up";
import type { Mode } from "@/lib/kernel/mode";

/** What a dashboard action runs with, once the guard has let it through. */
export interface ActionContext {
  user: SessionUser;
  /** Who acts and from where, for the audit log. */
  actor: Actor & { userId: string };
  /** The same, with the role and the selected mode: what lib/dashboard's actions take. */
  member: DashboardActor;
  mode: Mode;
  form: FormData;
  /** A field of the form as text ("" when absent). */
  text(name: string): string;
}

// biome-ignore lint/suspicious/noExplicitAny: error classes with any constructor
type ErrorClass = abstract new (...args: any[]) => Error;

interface ActionOptions<S> {
  /** The role's permission the action needs (none: any signed-in member). */
  permission?: Permission;
  /** A fresh second factor, whatever the mode (the team's actions). */
  stepUp?: boolean;
  /** The action's own domain errors, shown as refusals like a role's or step-up's. */
  expected?: readonly ErrorClass[];
  /** The state a refusal gives the form (from the error refused); by default the refusal itself. */
  refused?: (refusal: ActionRefusal, form: FormData, err: unknown) => S;
}

/**
 * THE wrapper of the dashboard's server actions (as dub's safe-action chain): the session and the role's
 * permission (a viewer's replayed request is refused here, and the lib checks again), step-up where asked, who
 * acts in which mode, then the action; a refusal (role, step-up, a domain error) comes back as the form's state,
 * anything else (and Next's redirects) is rethrown. An action that succeeded revalidates what it changed itself.
 */
export function dashboardAction<S>(
  options: ActionOptions<S>,
  run: (ctx: ActionContext) => Promise<S>,
): (prev: S, form: FormData) => Promise<S> {
  return async (_prev, form) => {
    try {
      const user = await requireActionUser(options.permission);
      if (options.stepUp) requireStepUp(user);
      const [actor, mode] = await Promise.all([actorOf(user), dashboardMode()]);
      const member = { ...actor, role: user.role, mode, secondFactorAt: user.secondFactorAt };
      const text = (name: string) => String(form.get(name) ?? "");
      return await run({ user, actor, member, mode, form, text });
    } catch (err) {
      const refusal = refusalOf(err, [...(options.expected ?? [])]);
      return options.refused ? options.refused(refusal, form, err) : (refusal as S);
    }
  };
}
