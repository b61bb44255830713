// Liveness only, and the API benchmark's baseline (bench/api.ts): no auth, no database.
export function GET() {
  return Response.json({ ok: true });
}
