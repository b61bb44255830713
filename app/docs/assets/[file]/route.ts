import { swaggerAssetResponse } from "@/lib/http/docs/swagger-assets";

export const dynamic = "force-dynamic";

// swagger-ui's CSS and JS, served by the service itself so /docs works offline (lib/http/docs/swagger-assets.ts).
export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }) {
  return swaggerAssetResponse((await ctx.params).file);
}
