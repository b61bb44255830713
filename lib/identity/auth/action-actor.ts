import { DomainError } from "@/lib/kernel/domain-error";
import { StepUpRequiredError } from "@/lib/identity/users/step-up";
import { DashboardForbiddenError } from "@/lib/identity/auth/dashboard-actor";
import { ForbiddenActionError } from "./guard";

/**
 * The message an action shows for an error it expects: a role refused, or a domain error (not found, a
 * refused request). Anything else (and Next's redirects) is rethrown.
 */
function actionErrorMessage(err: unknown): string {
  if (err instanceof ForbiddenActionError || err instanceof DashboardForbiddenError) return err.message;
  if (err instanceof DomainError && err.type !== "internal_server_error") return err.message;
  throw err;
}

/** What a refused action gives its form: the message, and whether step-up would let it through. */
export type ActionRefusal = { error: string; stepUp?: boolean };

/**
 * THE mapping of an action's error to its form's refusal: step-up needed (with the link to it), a role
 * refused, a domain error, or one of the action's own `expected` domain errors. Anything else (and Next's
 * redirects) is rethrown.
 */
// biome-ignore lint/suspicious/noExplicitAny: error classes with any constructor
export function refusalOf(err: unknown, expected: (abstract new (...args: any[]) => Error)[] = []): ActionRefusal {
  if (err instanceof StepUpRequiredError) return { error: err.message, stepUp: true };
  if (err instanceof Error && expected.some((kind) => err instanceof kind)) return { error: err.message };
  return { error: actionErrorMessage(err) };
}
