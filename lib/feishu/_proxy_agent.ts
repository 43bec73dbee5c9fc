/**
 * The Node agent that carries the long connection's socket through an HTTP
 * proxy with `CONNECT` (`https-proxy-agent`, already in the tree as an axios
 * dependency). One agent per proxy URL.
 * @module
 */

import createHttpsProxyAgent from "https-proxy-agent";

const agents = new Map<string, unknown>();

/** The tunnelling agent for a proxy URL (cached per URL). */
export function proxyAgent(proxy: URL): unknown {
  const key = proxy.href;
  let agent = agents.get(key);
  if (!agent) {
    agent = createHttpsProxyAgent(key);
    agents.set(key, agent);
  }
  return agent;
}
