import type { Metadata } from "next";
import type { ReactNode } from "react";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { signOut, signOutOfAllSessions, switchMode } from "../actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Dashboard", robots: { index: false, follow: false } };

export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const [user, mode] = await Promise.all([requirePageUser(), dashboardMode()]);
  return (
    <DashboardShell user={user} mode={mode} actions={{ switchMode, signOut, signOutAll: signOutOfAllSessions }}>
      {children}
    </DashboardShell>
  );
}
