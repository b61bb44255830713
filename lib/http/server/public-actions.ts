import fs from "node:fs";
import path from "node:path";

/**
 * Server actions that run without a session (the hosted pages' forms, accepting an invitation, the passkey
 * sign-in's challenge). Next runs an action by its id whatever path it is posted to, so the edge must know
 * these by id, not by path, to charge them to the public pages' per-client budget wherever they land.
 */
const PUBLIC_ACTION_FILES = /^app\/(checkout|pay|refund|dashboard\/invite|dashboard\/sign-in)\//;

export type ActionClass = (actionId: string) => "public" | "signed_in";

/**
 * Reads the build's action manifest once. An id it does not list (or no manifest: a build Next changed the
 * shape of) counts as public: charged, never waved through.
 */
export function loadActionClass(dir: string): ActionClass {
  const signedIn = new Set<string>();
  try {
    const file = path.join(dir, ".next", "server", "server-reference-manifest.json");
    const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as { node?: Record<string, { filename?: string }> };
    for (const [id, action] of Object.entries(manifest.node ?? {}))
      if (action.filename && !PUBLIC_ACTION_FILES.test(action.filename)) signedIn.add(id);
  } catch {
    /* no manifest: every action is charged */
  }
  return (actionId) => (signedIn.has(actionId) ? "signed_in" : "public");
}
