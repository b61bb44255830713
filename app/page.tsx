import { Code } from "@/components/code";

export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold">USDT Payments</h1>
      <p className="mt-4 text-slate-600">
        Accept USDT on Ethereum, BNB Smart Chain, Polygon, Tron and Solana through one API, hosted checkout pages and
        signed webhooks.
      </p>
      <p className="mt-6 text-sm text-slate-600">
        The API lives under <Code>/v1</Code> and takes a Bearer key (<Code>mnt_test_sk_…</Code> for sandbox,{" "}
        <Code>mnt_live_sk_…</Code> for live).
      </p>
    </main>
  );
}
