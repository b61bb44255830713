import { describe, expect, it } from "vitest";
import { DashboardForbiddenError } from "@/lib/identity/auth/dashboard-actor";
import { createDashboardLink, listDashboardLinks } from "@/lib/dashboard/actions/payment-links";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { newMerchant } from "../helpers/api";
import { auditRows, newActor } from "../helpers/dashboard-actors";

const BASE = "https://pay.example.com";
const db = () => getDb();
const expire = (id: string) =>
  query(db(), "update payment_links set expires_at = now() - interval '1 minute' where id = $1", [id]);

describe("dashboard payment links", () => {
  it("validate as POST /v1/payment-links does, each error on its field; a link is made and audited", async () => {
    const m = await newMerchant();
    const admin = await newActor(m.id, "admin");
    const errorsOf = async (amount: string, description = "") => {
      const r = await createDashboardLink(db(), admin, { amount, description }, BASE);
      return r.ok ? null : r.errors;
    };
    expect((await errorsOf(""))?.amount).toBeTruthy();
    expect(await errorsOf("1.1234567")).toEqual({ amount: expect.stringMatching(/6/) });
    expect(await errorsOf("-3")).toEqual({ amount: expect.any(String) });
    expect(await errorsOf("5", "x".repeat(501))).toEqual({ description: "description must be at most 500 characters" });
    expect(
      (await listDashboardLinks(db(), { merchantId: m.id, mode: "sandbox" }, { state: "active" }, BASE)).links,
    ).toEqual([]);

    const made = await createDashboardLink(db(), admin, { amount: " 12.5 ", description: "  Blue mug " }, BASE);
    if (!made.ok) throw new Error(JSON.stringify(made.errors));
    expect(made.link).toMatchObject({
      object: "payment_link",
      amount: "12.500000",
      description: "Blue mug",
      active: true,
      url: expect.stringMatching(/^https:\/\/pay\.example\.com\/pay\/[0-9A-Za-z]{32}$/),
    });
    expect(await auditRows(m.id, "payment_link.created")).toEqual([
      {
        user_id: admin.userId,
        target: made.link.id,
        details: { mode: "sandbox", amount: "12.500000" },
        ip: "10.1.2.3",
      },
    ]);
  });

  it("lists active and expired apart, newest first, with cursor paging; each mode and merchant alone", async () => {
    const m = await newMerchant();
    const owner = await newActor(m.id, "owner");
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const r = await createDashboardLink(db(), owner, { amount: String(i), description: `link ${i}` }, BASE);
      if (r.ok) ids.push(r.link.id);
    }
    await expire(ids[0]!);
    await expire(ids[2]!);
    const owned = { merchantId: m.id, mode: "sandbox" as const };
    const page1 = await listDashboardLinks(db(), owned, { state: "active", limit: 2 }, BASE);
    expect(page1.links.map((l) => l.id)).toEqual([ids[4], ids[3]]);
    expect(page1.hasMore).toBe(true);
    const page2 = await listDashboardLinks(db(), owned, { state: "active", limit: 2, starting_after: ids[3] }, BASE);
    expect(page2.links.map((l) => l.id)).toEqual([ids[1]]);
    expect(page2.hasMore).toBe(false);
    const expired = await listDashboardLinks(db(), owned, { state: "expired" }, BASE);
    expect(expired.links.map((l) => [l.id, l.active])).toEqual([
      [ids[2], false],
      [ids[0], false],
    ]);

    // Live mode and another merchant see none of them; a cursor of someone else's link restarts the list.
    expect((await listDashboardLinks(db(), { ...owned, mode: "live" }, { state: "active" }, BASE)).links).toEqual([]);
    const other = { merchantId: (await newMerchant()).id, mode: "sandbox" as const };
    expect((await listDashboardLinks(db(), other, { state: "active", starting_after: ids[4] }, BASE)).links).toEqual(
      [],
    );
    const liveLink = await createDashboardLink(
      db(),
      await newActor(m.id, "owner", "live"),
      { amount: "9", description: "" },
      BASE,
    );
    expect(liveLink.ok && liveLink.link.url).toMatch(/\/pay\//);
    expect((await listDashboardLinks(db(), owned, { state: "active" }, BASE)).links).toHaveLength(3);
  });

  it("viewers and developers are refused (links:write), and nothing is created", async () => {
    const m = await newMerchant();
    for (const role of ["viewer", "developer"] as const) {
      const actor = await newActor(m.id, role);
      const err = await createDashboardLink(db(), actor, { amount: "1", description: "" }, BASE).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DashboardForbiddenError);
      expect((err as Error).message).toBe(`Your role (${role}) does not allow this.`);
    }
    const [row] = await query<{ n: number }>(
      db(),
      "select count(*)::int as n from payment_links where merchant_id = $1",
      [m.id],
    );
    expect(row!.n).toBe(0);
    expect(await auditRows(m.id, "payment_link.created")).toEqual([]);
  });
});
