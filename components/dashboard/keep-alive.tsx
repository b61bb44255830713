"use client";

import { useEffect } from "react";

/**
 * Renews the session's idle expiry: next-auth re-issues the session cookie (30 more minutes) on each call
 * of its session endpoint, which server-rendered pages cannot do themselves.
 */
export function SessionKeepAlive() {
  useEffect(() => {
    void fetch("/api/auth/session", { credentials: "same-origin" }).catch(() => undefined);
  }, []);
  return null;
}
