import { z } from "zod";
import { EVENT_TYPES } from "./event-types";

/**
 * The event object (docs/API.md#events) around the object it carries: what GET /v1/events returns and what
 * webhooks deliver. The layer that knows the carried objects (payments, payouts, refunds) supplies their schema.
 */
export const eventObjectOf = <T extends z.ZodType>(dataObject: T) =>
  z
    .object({
      id: z.string().meta({ examples: ["evt_9Lm2Qx7T"] }),
      object: z.literal("event"),
      type: z.enum(EVENT_TYPES),
      livemode: z.boolean(),
      created: z.int().meta({ description: "Unix time, seconds." }),
      data: z.strictObject({ object: dataObject }),
    })
    .meta({ id: "Event", description: "Something that happened to a payment, a deposit, a payout or a refund." });
