/**
 * The live checks: the long connection (handshake and first ping, through
 * the bridge's own `startLongConnection`), a DM to the test user and the
 * test card whose click must come back over that connection (both sent
 * through the bridge's own Feishu client).
 * @module
 */

import type { FeishuApi } from "../feishu/mod.ts";
import { canaryCard, ClickWatch } from "./_click.ts";
import { type CanaryState, type CheckResult, type Evidence, failed } from "./_types.ts";

/** How often the connection status is looked at while waiting for it. */
const POLL_MS = 100;
/** How long a connection that is up and has pinged may take to show a pong. */
const PONG_GRACE_MS = 5_000;
/** How long the connection stays open after the click, so the ACK leaves before the socket closes. */
const ACK_LINGER_MS = 500;

const CONNECTION_FIX = [
  "514 or refused credentials: check app_id / app_secret and that a version is published",
  "no connection at all: allow wss to the endpoint host (firewall, HTTPS_PROXY / NO_PROXY)",
  "in the console, Events & Callbacks must use the long connection (not a request URL)",
].join("\n");

/**
 * Opens the long connection (kept open for the card check) and waits until
 * it is connected and has sent its first ping, then briefly for a pong.
 */
export async function checkLongConnection(state: CanaryState): Promise<CheckResult> {
  const { deps } = state;
  const a = state.account!;
  const watch = new ClickWatch(deps.newNonce());
  state.watch = watch;
  const conn = deps.connect({
    alias: a.alias,
    appId: a.appId,
    appSecret: a.appSecret,
    baseUrl: a.baseUrl,
    log: deps.log,
    clock: deps.clock,
    onEvent: watch.onEvent,
  });
  state.connection = conn;
  const budget = deps.connectTimeoutMs ?? 30_000;
  const deadline = deps.clock.now() + budget;
  let s = conn.status();
  while (!(s.state === "connected" && s.lastPingAt !== null)) {
    if (s.state === "failed" || deps.clock.now() >= deadline) {
      const why = s.lastError ? `: ${s.lastError}` : "";
      return failed(
        "long_connection",
        s.state === "failed"
          ? `Feishu refused the long connection${why}`
          : `not connected and pinged within ${budget / 1000} s (state ${s.state})${why}`,
        { evidence: connectionEvidence(s), fix: CONNECTION_FIX },
      );
    }
    await deps.clock.sleep(POLL_MS);
    s = conn.status();
  }
  const pongBy = Math.min(deadline, deps.clock.now() + PONG_GRACE_MS);
  while (!ponged(s) && deps.clock.now() < pongBy) {
    await deps.clock.sleep(POLL_MS);
    s = conn.status();
  }
  const pong = ponged(s);
  return {
    name: "long_connection",
    status: "pass",
    detail: `connected to ${s.endpointHost ?? "the endpoint"}, ping sent, ` +
      (pong ? "pong received" : "no pong yet (the SDK's own watchdog will tell)"),
    evidence: { ...connectionEvidence(s), pong },
  };
}

type Status = ReturnType<NonNullable<CanaryState["connection"]>["status"]>;

function ponged(s: Status): boolean {
  return s.lastPingAt !== null && s.lastFrameAt !== null && s.lastFrameAt >= s.lastPingAt;
}

function connectionEvidence(s: Status): Evidence {
  const e: Evidence = { state: s.state, connects: s.connects };
  if (s.endpointHost) e.endpoint_host = s.endpointHost;
  if (s.proxy) e.proxy = s.proxy;
  return e;
}

function apiOf(state: CanaryState): FeishuApi {
  state.api ??= state.deps.createApi(state.account!, state.deps.log);
  return state.api;
}

/** Fixes for the codes a send to a user commonly fails with. */
const SEND_FIXES: Record<number, string> = {
  230013: "the user is outside the app's availability: add them (App Release > Availability) " +
    "and publish a version",
  99992361: "open_ids differ per app: use the user's open_id for this app (from an event or " +
    "the console's API explorer with this app)",
  99991672: "a scope is missing: see the scopes check, grant it and publish a version",
  99991679: "a scope is missing: see the scopes check, grant it and publish a version",
};

function sendFailure(name: "dm" | "card_callback", what: string, err: unknown): CheckResult {
  const e = err as { code?: unknown; message?: string; context?: Record<string, unknown> };
  const code = typeof e?.context?.providerCode === "number" ? e.context.providerCode : null;
  const evidence: Evidence = {};
  if (typeof e?.code === "string") evidence.error_code = e.code;
  if (code !== null) evidence.code = code;
  if (typeof e?.context?.httpStatus === "number") evidence.http_status = e.context.httpStatus;
  return failed(name, `${what} failed: ${e?.message ?? String(err)}`, {
    evidence,
    fix: (code !== null ? SEND_FIXES[code] : undefined) ??
      "check the --to open_id (a user of this tenant who can see the app) and the bot's scopes",
  });
}

/** Sends a text DM to the test user through the bridge's Feishu client. */
export async function checkDm(state: CanaryState): Promise<CheckResult> {
  const text = "feishu-mcp canary: this DM checks that the bot reaches you. A card follows; " +
    "click its button to finish.";
  try {
    const sent = await apiOf(state).createMessage({
      receiveId: state.request.to,
      receiveIdType: "open_id",
      msgType: "text",
      content: JSON.stringify({ text }),
    });
    return {
      name: "dm",
      status: "pass",
      detail: "a text DM reached the test user",
      evidence: { message_id: sent.messageId },
    };
  } catch (err) {
    return sendFailure("dm", "the DM", err);
  }
}

const NO_CLICK_FIX = [
  "error 200340 on click: in the developer console, Events & Callbacks > Callbacks, choose the " +
  "long connection, subscribe card.action.trigger, then publish a version (drafts have no effect)",
  "not clicked in time: run the canary again and click within --timeout seconds",
  "clicked without an error: a bridge running on the same app may have taken the click; stop " +
  "it while the canary runs",
].join("\n");

/**
 * Sends the test card and waits `--timeout` seconds for its click over the
 * long connection, which is answered with a toast.
 */
export async function checkCard(state: CanaryState): Promise<CheckResult> {
  const { deps, request } = state;
  const watch = state.watch!;
  const nonce = watch.nonce;
  let messageId: string;
  try {
    const sent = await apiOf(state).createMessage({
      receiveId: request.to,
      receiveIdType: "open_id",
      msgType: "interactive",
      content: canaryCard(nonce, request.timeoutSeconds),
    });
    messageId = sent.messageId;
  } catch (err) {
    return sendFailure("card_callback", "sending the test card", err);
  }
  deps.progress(`waiting up to ${request.timeoutSeconds} s for a click on the test card`);
  const click = await watch.wait(deps.clock, request.timeoutSeconds * 1000);
  if (!click) {
    return failed(
      "card_callback",
      `no click arrived over the long connection within ${request.timeoutSeconds} s; a clicker ` +
        "who saw error 200340 means Feishu does not deliver card callbacks to it",
      {
        evidence: { message_id: messageId, other_events_refused: watch.refused },
        fix: NO_CLICK_FIX,
      },
    );
  }
  await deps.clock.sleep(ACK_LINGER_MS);
  const evidence: Evidence = {
    message_id: messageId,
    clicked_by_test_user: click.operatorOpenId === request.to,
  };
  if (click.eventId) evidence.event_id = click.eventId;
  return {
    name: "card_callback",
    status: "pass",
    detail: "the click came back over the long connection and was answered with a toast",
    evidence,
  };
}
