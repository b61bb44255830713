import { getDb } from "@/lib/platform/db/client";
import { mailConfigured } from "@/lib/platform/mail/send-mail";
import { sendSignInFailureNotice } from "@/lib/identity/users/sign-in-failure-notice";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

export const notifySignInFailuresJob = defineJob(contracts.notifySignInFailures, async (payload) => {
  // A worker without SMTP_URL (set on the web only, say) cannot send: the audit entry remains the record.
  if (!mailConfigured()) return;
  await sendSignInFailureNotice(getDb(), payload);
});
