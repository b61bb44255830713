import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { mailConfigured } from "@/lib/mail/send-mail";
import { sendSignInFailureNotice } from "@/lib/users/sign-in-failure-notice";
import { defineJob } from "../define-job";

export const notifySignInFailuresJob = defineJob({
  name: "notify_sign_in_failures",
  description:
    "Emails a dashboard user that someone reached the failed sign-in limit on their account (queued with the audit entry, at most hourly).",
  payload: z.object({
    user_id: z.string(),
    kind: z.enum(["password", "code", "passkey"]),
    failures: z.number().int(),
    client: z.string(),
    at: z.string(),
  }),
  handler: async (payload) => {
    // A worker without SMTP_URL (set on the web only, say) cannot send: the audit entry remains the record.
    if (!mailConfigured()) return;
    await sendSignInFailureNotice(getDb(), payload);
  },
});
