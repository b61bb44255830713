import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { can, PERMISSIONS, ROLE_PERMISSIONS, USER_ROLES } from "@/lib/identity/users/roles";

const writes = PERMISSIONS.filter((p) => !p.endsWith(":read"));

describe("the roles table", () => {
  it("owner may do everything; admin everything but the team and the audit log", () => {
    for (const p of PERMISSIONS) expect(can("owner", p), p).toBe(true);
    const adminDenied = PERMISSIONS.filter((p) => !can("admin", p));
    expect(adminDenied).toEqual(["team:write", "audit:read"]);
  });

  it("the network fees (costs) are for owners and admins only", () => {
    expect(USER_ROLES.filter((r) => can(r, "costs:read"))).toEqual(["owner", "admin"]);
  });

  it("developer: keys, webhooks and events, reads of payments, links, payouts and balances; nothing else", () => {
    expect(writes.filter((p) => can("developer", p))).toEqual(["keys:write", "webhooks:write"]);
    for (const p of ["payments:read", "payouts:read", "balances:read", "events:read", "links:read"] as const)
      expect(can("developer", p), p).toBe(true);
    expect(can("developer", "payouts:approve")).toBe(false);
    expect(can("developer", "audit:read")).toBe(false);
  });

  it("viewer: reads only, never a write, never the audit log", () => {
    for (const p of writes) expect(can("viewer", p), p).toBe(false);
    expect(can("viewer", "audit:read")).toBe(false);
    expect(can("viewer", "costs:read")).toBe(false);
    expect(can("viewer", "payments:read")).toBe(true);
  });

  it("docs/DASHBOARD.md shows exactly this table", () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, "../../docs/DASHBOARD.md"), "utf8");
    const rows = new Map(
      doc
        .split("\n")
        .filter((l) => /^\| `[a-z]+:[a-z]+` \|/.test(l))
        .map((l) => {
          const cells = l
            .split("|")
            .slice(1, -1)
            .map((c) => c.trim());
          return [cells[0]!.replaceAll("`", ""), cells.slice(1)] as const;
        }),
    );
    expect([...rows.keys()].sort()).toEqual([...PERMISSIONS].sort());
    for (const [permission, cells] of rows) {
      const shown = USER_ROLES.filter((_, i) => cells[i] === "yes");
      expect(shown, permission).toEqual(USER_ROLES.filter((r) => ROLE_PERMISSIONS[r].includes(permission as never)));
    }
  });
});
