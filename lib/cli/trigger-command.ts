import { CHAINS, isChain } from "@/lib/chains/chains";
import { config } from "@/lib/platform/config/env";
import { type Command, required, UsageError } from "./cli-flags";
import type { CommandSpec } from "./command-specs";
import { serviceApi, ServiceError, type ServiceApi } from "./service-api";
import { TRIGGERS, type Triggered } from "./trigger-events";

/** An EVM sandbox chain: 4 confirmations (SANDBOX_CONFIRMATIONS) that `mine` produces at once. */
const DEFAULT_CHAIN = "polygon";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const TRIGGER_SPEC: CommandSpec = {
  summary: "make a webhook event happen for real in the sandbox, over the /v1 API (as stripe trigger does)",
  args: [{ name: "event", description: `one of: ${Object.keys(TRIGGERS).join(", ")}` }],
  options: [
    { flags: "--api-key <key>", description: "a sandbox key (mnt_test_sk_…)", required: true, env: "USDT_API_KEY" },
    {
      flags: "--base-url <url>",
      description: "the service's address (default: PUBLIC_BASE_URL, or http://localhost:$PORT)",
      env: "USDT_BASE_URL",
    },
    {
      flags: "--chain <chain>",
      description: `the sandbox chain to use: ${CHAINS.join(", ")} (default ${DEFAULT_CHAIN})`,
    },
  ],
  withoutDatabase: true,
  more: [
    "Events:",
    ...Object.entries(TRIGGERS).map(([event, t]) => `  ${event.padEnd(26)}${t.does}`),
    "",
    "Payments move only while a worker watches the chain, and payouts",
    "need a worker too: npm start runs both. One line per step (with",
    "--json one JSON document per line), then the id of the event",
    "from GET /v1/events.",
  ].join("\n"),
};

/** The event the object's change recorded, from GET /v1/events?type=… (it may trail the status by a moment). */
async function findEvent(api: ServiceApi, type: string, triggered: Triggered): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const events = await api.get<{ data: { id: string; data: { object: { id: string } } }[] }>(
      `/v1/events?type=${encodeURIComponent(type)}&limit=100`,
    );
    const event = events.data.find((e) => e.data.object.id === triggered.id);
    if (event) return event.id;
    await sleep(1_000);
  }
  throw new ServiceError(`${triggered.object} ${triggered.id} changed, but GET /v1/events lists no ${type} for it`);
}

export const TRIGGER_COMMANDS: Record<string, Command> = {
  async trigger(_db, flags, context) {
    const event = required(flags, "event");
    const trigger = TRIGGERS[event];
    if (!trigger) throw new UsageError(`unknown event "${event}": one of ${Object.keys(TRIGGERS).join(", ")}`);
    const chain = typeof flags.chain === "string" ? flags.chain : DEFAULT_CHAIN;
    if (!isChain(chain)) throw new UsageError(`--chain must be one of ${CHAINS.join(", ")}, got "${chain}"`);
    const key = required(flags, "api-key");
    // It creates objects and moves money: with a live key that would be real money, so only sandbox keys.
    if (!key.startsWith("mnt_test_sk_")) throw new UsageError("trigger takes a sandbox key (mnt_test_sk_…)");
    const baseUrl = typeof flags["base-url"] === "string" ? flags["base-url"] : config().publicBaseUrl;
    const api = serviceApi(baseUrl, key);
    const triggered = await trigger.run({ api, chain, step: (text, json) => context.progress(text, json) });
    const id = await findEvent(api, event, triggered);
    return {
      json: { event: { id, type: event }, [triggered.object]: triggered.id },
      text: [`${event} happened: event ${id} (${triggered.object} ${triggered.id})`],
    };
  },
};
