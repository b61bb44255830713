import nodemailer from "nodemailer";
import { config } from "@/lib/platform/config/env";
import { redactText } from "@/lib/platform/log-redaction";

/** True when SMTP_URL is set: invitation links are then emailed as well as shown. */
export const mailConfigured = () => Boolean(config().smtpUrl);

/**
 * Sends one plain-text email through SMTP_URL (from SMTP_FROM, or no-reply@ the public host). Throws with a
 * message safe to show: a failure never carries the URL's credentials.
 */
export async function sendMail(message: { to: string; subject: string; text: string }): Promise<void> {
  const cfg = config();
  if (!cfg.smtpUrl) throw new Error("SMTP_URL is not set");
  const from = cfg.smtpFrom ?? `no-reply@${new URL(cfg.publicBaseUrl).hostname}`;
  const transport = nodemailer.createTransport(cfg.smtpUrl, { connectionTimeout: 10_000, socketTimeout: 15_000 });
  try {
    await transport.sendMail({ from, ...message });
  } catch (err) {
    throw new Error(redactText(err instanceof Error ? err.message : String(err)).replaceAll(cfg.smtpUrl, "[SMTP_URL]"));
  } finally {
    transport.close();
  }
}
