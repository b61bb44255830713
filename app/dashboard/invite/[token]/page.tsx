import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AcceptInvitationForm } from "@/components/dashboard/accept-invitation-form";
import { getDb } from "@/lib/platform/db/client";
import { findInvitation, INVITATION_UNUSABLE } from "@/lib/identity/users/accept-invitation";
import { MIN_PASSWORD_LENGTH } from "@/lib/identity/users/password";
import { acceptInvite } from "./actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Join the team · Dashboard", robots: { index: false, follow: false } };

/** An invitation link (public: the token is the credential): choose a password to join the team. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await findInvitation(getDb(), token);
  // A link that was never issued is not a page; a used, revoked or expired one says why it cannot be used.
  if (invitation.state === "unknown") notFound();
  return (
    <main className="min-h-screen bg-slate-100 px-3 py-10 sm:py-16">
      <div className="mx-auto max-w-sm rounded-2xl bg-white px-5 py-6 shadow-sm ring-1 ring-slate-200 sm:px-6">
        {invitation.state === "valid" ? (
          <>
            <h1 className="text-xl font-semibold text-slate-900">Join {invitation.merchantName}</h1>
            <p className="mt-1 mb-5 text-sm break-all text-slate-600">
              You are invited as {invitation.role} with {invitation.email}. Choose a password of at least{" "}
              {MIN_PASSWORD_LENGTH} characters.
            </p>
            <AcceptInvitationForm action={acceptInvite} token={token} />
          </>
        ) : (
          <>
            <h1 className="text-xl font-semibold text-slate-900">This invitation cannot be used</h1>
            <p className="mt-2 text-sm text-slate-700">{INVITATION_UNUSABLE[invitation.state]}</p>
          </>
        )}
      </div>
    </main>
  );
}
