import { users } from "@/db/schema/users";
import type { Db } from "@/lib/platform/db/client";
import { newId } from "@/lib/kernel/random";
import { generatePassword, hashPassword, MIN_PASSWORD_LENGTH } from "./password";
import type { Role } from "./roles";
import { serializeUser } from "./serialize-user";

export class UserInputError extends Error {}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Creates a dashboard user of a merchant. Without a password one is generated; it is returned this once
 * (only its Argon2id hash is stored). An email already used, whatever its case, is refused.
 */
export async function createUser(
  db: Db,
  input: { merchantId: string; email: string; role: Role; password?: string },
): Promise<{ user: ReturnType<typeof serializeUser>; password: string }> {
  const email = input.email.trim();
  if (!EMAIL_PATTERN.test(email)) throw new UserInputError(`"${email}" is not an email address`);
  const password = input.password ?? generatePassword();
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new UserInputError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  const passwordHash = await hashPassword(password);
  const [row] = await db
    .insert(users)
    .values({ id: newId("usr_"), merchantId: input.merchantId, email, passwordHash, role: input.role })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new UserInputError(`a user with the email ${email} already exists`);
  return { user: serializeUser(row), password };
}
