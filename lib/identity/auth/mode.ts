import { cookies } from "next/headers";
import { MODES, type Mode } from "@/lib/kernel/mode";

/** The dashboard's sandbox / live switch lives in this cookie (per browser, not per session). */
export const MODE_COOKIE = "dashboard_mode";

export async function dashboardMode(): Promise<Mode> {
  const value = (await cookies()).get(MODE_COOKIE)?.value;
  return (MODES as readonly string[]).includes(value ?? "") ? (value as Mode) : "sandbox";
}
