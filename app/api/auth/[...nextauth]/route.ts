import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { authOptions } from "@/lib/identity/auth/auth-options";

export const dynamic = "force-dynamic";

// next-auth v4's endpoints (csrf, providers, callback/credentials, session, signout): the options are built
// on the first request, not at build time (the secret derives from the master key).
const handler = (req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }) =>
  NextAuth(req, ctx, authOptions());

export { handler as GET, handler as POST };
