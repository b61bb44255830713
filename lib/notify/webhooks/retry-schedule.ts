import { type AppConfig, config } from "@/lib/platform/config/env";

/** Up to 5 retries after 5, 10, 20, 40 and 80 s (6 attempts at most). */
export const RETRY_DELAYS_S = [5, 10, 20, 40, 80] as const;

/** WEBHOOK_RETRY_SCALE shrinks the schedule for test suites (e.g. 0.01); production leaves it at 1. */
export function retryDelayMs(attempt: number, cfg: AppConfig = config()): number {
  return Math.round(RETRY_DELAYS_S[attempt - 1]! * 1000 * cfg.webhookRetryScale);
}
