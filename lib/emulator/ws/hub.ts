/**
 * The long-connection side of the emulator: endpoint discovery
 * (`POST /callback/ws/endpoint`), the `/ws/v2` upgrade, the sessions, and the
 * WS fault knobs (endpoint refusal, drops, silent sockets, raw frames).
 * @module
 */

import type { Core } from "../core.ts";
import { waitForChange, type WaitOptions } from "../feed.ts";
import type { EventEnvelope } from "../views.ts";
import { Deliveries } from "./delivery.ts";
import { Session } from "./session.ts";

/** A session as status reports show it. */
export interface SessionStatus {
  session_id: string;
  app_id: string;
  ready: boolean;
  silent: boolean;
  closed: boolean;
  pings: number;
  opened_at: number;
}

/** An endpoint refusal: answer discovery with `code` (514 fatal, 1000040343 retryable). */
export interface EndpointRefusal {
  code: number;
  msg?: string;
  /** How many calls to refuse (default: until cleared). */
  times?: number;
}

/** A refused WS upgrade (HTTP status and handshake headers). */
export interface UpgradeRefusal {
  status: number;
  headers?: Record<string, string>;
  times?: number;
}

const encoder = new TextEncoder();

/** Sessions, discovery and delivery for one emulator. */
export class WsHub {
  /** Every session ever opened, in order. */
  readonly sessions: Session[] = [];
  /** Event records, ACK matching, redelivery. */
  readonly deliveries: Deliveries;
  /** Pending endpoint refusals, used front to back. */
  readonly endpointRefusals: EndpointRefusal[] = [];
  /** Pending upgrade refusals. */
  readonly upgradeRefusals: UpgradeRefusal[] = [];
  readonly #core: Core;
  readonly #tickets = new Map<string, string>();
  readonly #rr = new Map<string, number>();

  /** Creates the hub on a core. */
  constructor(core: Core) {
    this.#core = core;
    this.deliveries = new Deliveries(core, (appId) => this.pick(appId));
  }

  /** Picks an eligible session of the app, round robin (cluster mode). */
  pick(appId: string): Session | undefined {
    const eligible = this.sessions.filter((s) => s.appId === appId && s.eligible);
    if (eligible.length === 0) return undefined;
    const n = this.#rr.get(appId) ?? 0;
    this.#rr.set(appId, n + 1);
    return eligible[n % eligible.length];
  }

  /** `POST /callback/ws/endpoint` (capitalised `AppID`/`AppSecret`). */
  endpoint(url: URL, body: unknown): Response {
    const reply = (code: number, msg: string, data: unknown = {}) =>
      new Response(JSON.stringify({ code, msg, data }), {
        headers: { "content-type": "application/json" },
      });
    const refusal = this.endpointRefusals[0];
    if (refusal) {
      if (refusal.times !== undefined && --refusal.times <= 0) this.endpointRefusals.shift();
      return reply(refusal.code, refusal.msg ?? (refusal.code === 514 ? "auth failed" : "refused"));
    }
    const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const app = typeof b.AppID === "string" ? this.#core.world.apps.get(b.AppID) : undefined;
    if (!app || b.AppSecret !== app.appSecret) return reply(514, "auth failed");
    const ids = this.#core.ids;
    const ticket = ids.next("tk_emu_");
    const deviceId = `7000000000000${String(ids.count("device")).padStart(6, "0")}`;
    const accessKey = ids.next("ak_emu_");
    this.#tickets.set(ticket, app.appId);
    // Discovered over https (the TLS listener), the long connection is wss too.
    const scheme = url.protocol === "https:" ? "wss" : "ws";
    const wsUrl = `${scheme}://${url.host}/ws/v2?fpid=493&aid=552564&device_id=${deviceId}` +
      `&access_key=${accessKey}&service_id=${this.#core.settings.serviceId}&ticket=${ticket}`;
    return reply(0, "ok", { URL: wsUrl, ClientConfig: { ...this.#core.settings.clientConfig } });
  }

  /** Upgrades `/ws/v2?…&ticket=…` to a session. */
  upgrade(req: Request, url: URL): Response {
    const refusal = this.upgradeRefusals[0];
    if (refusal) {
      if (refusal.times !== undefined && --refusal.times <= 0) this.upgradeRefusals.shift();
      return new Response(null, { status: refusal.status, headers: refusal.headers });
    }
    const ticket = url.searchParams.get("ticket") ?? "";
    const appId = this.#tickets.get(ticket);
    if (!appId || req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response(null, {
        status: 403,
        headers: { "handshake-status": "403", "handshake-msg": "invalid ticket" },
      });
    }
    this.#tickets.delete(ticket);
    const { socket, response } = Deno.upgradeWebSocket(req);
    const session = new Session(socket, {
      id: url.searchParams.get("device_id") ?? ticket,
      appId,
      serviceId: Number(url.searchParams.get("service_id") ?? this.#core.settings.serviceId),
      openedAt: this.#core.clock.now(),
      readyOnOpen: this.#core.settings.readyOn === "open",
      events: {
        config: () => ({ ...this.#core.settings.clientConfig }),
        onPing: (s) => {
          this.#core.feed.emit({ kind: "ws.session", session_id: s.id });
          if (s.eligible) this.deliveries.flush(s.appId);
        },
        onAck: (s, frame) => this.deliveries.onAckFrame(s, frame),
        onClose: (s) => this.#core.feed.emit({ kind: "ws.session", session_id: s.id }),
        onError: (_s, where, error) => this.#core.recordError(where, error),
      },
    });
    this.sessions.push(session);
    this.#core.feed.emit({ kind: "ws.session", session_id: session.id });
    return response;
  }

  /** Open sessions, optionally of one app. */
  open(appId?: string): Session[] {
    return this.sessions.filter((s) => !s.closed && (appId === undefined || s.appId === appId));
  }

  /** Status rows of every session (closed ones included). */
  status(): SessionStatus[] {
    return this.sessions.map((s) => ({
      session_id: s.id,
      app_id: s.appId,
      ready: s.ready,
      silent: s.silent,
      closed: s.closed,
      pings: s.pings,
      opened_at: s.openedAt,
    }));
  }

  /** Resolves with an eligible session (first ping seen) of the app. */
  whenReady(appId: string, options: WaitOptions = {}): Promise<Session> {
    return waitForChange(
      () => this.sessions.find((s) => s.appId === appId && s.eligible),
      {
        ...options,
        feed: this.#core.feed,
        clock: this.#core.clock,
        description: "a ready WS session",
      },
    );
  }

  /** Closes sessions (all open ones, or one); `graceful:false` stops reading at once. */
  drop(options: { graceful?: boolean; sessionId?: string; appId?: string } = {}): number {
    const targets = this.open(options.appId).filter((s) =>
      options.sessionId === undefined || s.id === options.sessionId
    );
    for (const s of targets) s.close(options.graceful ?? true);
    return targets.length;
  }

  /** Makes sessions silent (no pongs, no deliveries) or normal again. */
  setSilent(silent: boolean, options: { sessionId?: string; appId?: string } = {}): void {
    for (const s of this.open(options.appId)) {
      if (options.sessionId !== undefined && s.id !== options.sessionId) continue;
      s.silent = silent;
      this.#core.feed.emit({ kind: "ws.session", session_id: s.id });
      if (!silent && s.eligible) this.deliveries.flush(s.appId);
    }
  }

  /** Sends raw bytes to every open session of the app (e.g. a malformed frame). */
  sendRaw(bytes: Uint8Array, appId?: string): number {
    let n = 0;
    for (const s of this.open(appId)) if (s.sendBytes(bytes)) n++;
    return n;
  }

  /** Sends an envelope as a `type=card` data frame, which the SDK must ignore. */
  sendCardFrame(envelope: EventEnvelope, appId?: string): string {
    const frameId = this.#core.ids.next("fm_card_");
    for (const s of this.open(appId)) {
      s.sendFrame({
        SeqID: 0,
        LogID: 0,
        service: s.serviceId,
        method: 1,
        headers: [
          { key: "type", value: "card" },
          { key: "message_id", value: frameId },
          { key: "sum", value: "1" },
          { key: "seq", value: "0" },
          { key: "trace_id", value: frameId },
        ],
        payload: encoder.encode(JSON.stringify(envelope)),
      });
    }
    return frameId;
  }

  /** Closes every session. */
  close(): void {
    for (const s of this.sessions) s.close(true);
    this.#tickets.clear();
  }
}
