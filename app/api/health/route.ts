// Liveness probe and the benchmark's baseline: no auth, no database.
export function GET() {
  return Response.json({ ok: true });
}
