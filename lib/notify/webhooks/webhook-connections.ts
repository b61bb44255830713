import http from "node:http";
import https from "node:https";

/**
 * Connections kept open between deliveries (a TLS handshake per delivery costs both sides more than the POST),
 * one pool per URL origin and vetted address: a connection is only ever reused for the address this send vetted.
 * Idle ones close after 4 s (or sooner when the endpoint's Keep-Alive says so), and never hold the process.
 */
const agents = new Map<string, http.Agent>();
const MAX_AGENTS = 256;

export function keptAlive(url: URL, pinned: string): http.Agent {
  const key = `${url.origin}|${pinned}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key); // most recently used last
  } else {
    const Agent = url.protocol === "https:" ? https.Agent : http.Agent;
    agent = new Agent({ keepAlive: true, timeout: 4_000, maxSockets: 50, maxFreeSockets: 10 });
    // The least recently used pool is let go, not destroyed: a send still on it finishes, and its idle
    // connections close on their own timeout.
    if (agents.size >= MAX_AGENTS) agents.delete(agents.keys().next().value as string);
  }
  agents.set(key, agent);
  return agent;
}
