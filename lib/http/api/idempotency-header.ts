import { invalidRequest } from "@/lib/kernel/domain-error";

const MAX_KEY_LENGTH = 255;

export function readIdempotencyKey(req: Request): string | null {
  const key = req.headers.get("idempotency-key");
  if (key === null) return null;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalidRequest(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters.`, "Idempotency-Key");
  }
  return key;
}
