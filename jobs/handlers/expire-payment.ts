import type { Task } from "graphile-worker";
import { getDb } from "@/lib/db/client";
import { expirePaymentIfDue } from "@/lib/payments/expire-payment";

export const expirePaymentTask: Task = async (payload) => {
  await expirePaymentIfDue(getDb(), (payload as { paymentId: string }).paymentId);
};
