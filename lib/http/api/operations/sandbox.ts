import { z } from "zod";
import { CHAINS } from "@/lib/kernel/chain-ids";
import {
  sandboxChainList,
  sandboxCongested,
  sandboxDrop,
  sandboxFaucetTransfer,
  sandboxFreeze,
  sandboxMined,
  sandboxReorganized,
} from "@/lib/chains/sandbox/sandbox-objects";
import { defineOperation } from "../operation";
import { congestBody, dropBody, faucetBody, freezeBody, mineBody, reorgBody } from "../sandbox-schemas";

const tag = "Sandbox";
const chainParam = { chain: z.enum(CHAINS) };
// The chain-wide controls (reorg, drop, freeze, congest) affect every tenant of the sandbox chains: only
// keys the operator granted `sandbox:chains` may use them.
const chainControl = {
  tag,
  sandboxOnly: true,
  pathParams: chainParam,
  errors: ["not_found", "chain_disabled"],
} as const;

export const SANDBOX = {
  chains: defineOperation({
    operationId: "listSandboxChains",
    method: "get",
    path: "/v1/sandbox/chains",
    tag,
    summary: "List the sandbox chains",
    description: "Where each local chain answers and how payments on it are confirmed.",
    scope: "payments:read",
    sandboxOnly: true,
    query: z.strictObject({}),
    response: sandboxChainList,
  }),
  faucet: defineOperation({
    operationId: "sandboxFaucet",
    method: "post",
    path: "/v1/sandbox/faucet",
    tag,
    summary: "Send test USDT to an address",
    scope: "payments:write",
    sandboxOnly: true,
    body: faucetBody,
    response: sandboxFaucetTransfer,
    errors: ["chain_disabled"],
  }),
  mine: defineOperation({
    ...chainControl,
    operationId: "mineSandboxChain",
    method: "post",
    path: "/v1/sandbox/chains/{chain}/mine",
    summary: "Mine blocks",
    scope: "payments:write",
    body: mineBody,
    response: sandboxMined,
  }),
  reorg: defineOperation({
    ...chainControl,
    operationId: "reorgSandboxChain",
    method: "post",
    path: "/v1/sandbox/chains/{chain}/reorg",
    summary: "Replace the newest blocks (EVM chains)",
    scope: "sandbox:chains",
    body: reorgBody,
    response: sandboxReorganized,
  }),
  drop: defineOperation({
    ...chainControl,
    operationId: "dropSandboxTransaction",
    method: "post",
    path: "/v1/sandbox/chains/{chain}/drop",
    summary: "Drop a pending transaction from the node's pool",
    scope: "sandbox:chains",
    body: dropBody,
    response: sandboxDrop,
  }),
  congest: defineOperation({
    ...chainControl,
    operationId: "congestSandboxChain",
    method: "post",
    path: "/v1/sandbox/chains/{chain}/congest",
    summary: "Congest the fee market (EVM: base fee; Solana: compute-unit price)",
    scope: "sandbox:chains",
    body: congestBody,
    response: sandboxCongested,
  }),
  freeze: defineOperation({
    ...chainControl,
    operationId: "freezeSandboxAddress",
    method: "post",
    path: "/v1/sandbox/chains/{chain}/freeze",
    summary: "Freeze an address in the sandbox token (as Tether can)",
    scope: "sandbox:chains",
    body: freezeBody,
    response: sandboxFreeze,
  }),
  unfreeze: defineOperation({
    ...chainControl,
    operationId: "unfreezeSandboxAddress",
    method: "post",
    path: "/v1/sandbox/chains/{chain}/unfreeze",
    summary: "Unfreeze an address in the sandbox token",
    scope: "sandbox:chains",
    body: freezeBody,
    response: sandboxFreeze,
  }),
};
