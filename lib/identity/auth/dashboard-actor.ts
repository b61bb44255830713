import type { Mode } from "@/lib/kernel/mode";
import type { Actor } from "@/lib/identity/users/audit";
import { can, type Permission, type Role } from "@/lib/identity/users/roles";

/** Who acts (for the audit log), with which role, in which mode: what every dashboard mutation takes. */
export interface DashboardActor extends Actor {
  userId: string;
  role: Role;
  mode: Mode;
  /** When the acting session last proved a second factor (step-up); null or absent: never. */
  secondFactorAt?: Date | null;
}

/** A role without the permission: the action reports the message and does nothing. */
export class DashboardForbiddenError extends Error {}

/**
 * Refuses a role without `permission`. Actions check it first (requireActionUser); the lib checks again so
 * no caller can skip it.
 */
export function assertCan(actor: DashboardActor, permission: Permission): void {
  if (!can(actor.role, permission)) throw new DashboardForbiddenError(`Your role (${actor.role}) does not allow this.`);
}

/** A form's answer: field errors shown next to their field, or a message for the whole form. */
export type FieldErrors<F extends string> = Partial<Record<F | "form", string>>;

/** The owner (merchant and mode) every lookup is scoped by. */
export const ownerOf = (actor: DashboardActor) => ({ merchantId: actor.merchantId, mode: actor.mode });
