import { hkdfSync } from "node:crypto";
import { type AppConfig, config } from "@/lib/platform/config/env";
import { masterKey } from "@/lib/platform/secrets/master-key";

/**
 * The secret next-auth signs and encrypts sessions with: NEXTAUTH_SECRET when set, otherwise derived from
 * the master key with HKDF-SHA256 (its own label, so it reveals nothing of the key), so every instance that
 * shares MASTER_KEY agrees without a new secret to manage.
 */
export function nextAuthSecret(cfg: AppConfig = config()): string {
  if (cfg.nextAuthSecret) return cfg.nextAuthSecret;
  return Buffer.from(
    hkdfSync("sha256", masterKey(cfg), Buffer.alloc(0), "usdt-payments/nextauth-secret/v1", 32),
  ).toString("base64url");
}
