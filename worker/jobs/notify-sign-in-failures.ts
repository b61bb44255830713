import { getDb } from "@/lib/db/client";
import { mailConfigured } from "@/lib/mail/send-mail";
import { sendSignInFailureNotice } from "@/lib/users/sign-in-failure-notice";
import * as contracts from "@/lib/jobs/contracts";
import { defineJob } from "@/lib/jobs/define-job";

export const notifySignInFailuresJob = defineJob(contracts.notifySignInFailures, async (payload) => {
  // A worker without SMTP_URL (set on the web only, say) cannot send: the audit entry remains the record.
  if (!mailConfigured()) return;
  await sendSignInFailureNotice(getDb(), payload);
});
