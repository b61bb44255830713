import { serviceHealth } from "@/lib/platform/health/service-health";

export const dynamic = "force-dynamic";

// Health for operators and load balancers: 200 when the database answers and every supervised process is
// up, 503 naming what is not (docs/SECURITY.md, "Availability"). No auth; no secrets in it.
export async function GET() {
  const health = await serviceHealth();
  return Response.json(health, { status: health.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
