import type { Task } from "graphile-worker";
import { getDb } from "@/lib/db/client";
import { sweepStalledDeliveries } from "@/lib/webhooks/deliver-webhook";

/** A delivery more than a minute past its lease or schedule has lost its worker. */
export const redeliverStalledWebhooksTask: Task = async (_payload, helpers) => {
  const count = await sweepStalledDeliveries(getDb(), new Date(Date.now() - 60_000));
  if (count > 0) helpers.logger.info(`re-enqueued ${count} stalled webhook deliveries`);
};
