/**
 * One long-connection session: the server side of a node-sdk WSClient's
 * socket. Answers pings with a full-config pong, sends data frames and hands
 * decoded ACKs to the hub. Readiness is the first ping: the SDK attaches its
 * message listener right after `open`, and its first ping is sent from that
 * same `open` handler, so a frame pushed after it is never lost.
 * @module
 */

import type { ClientConfig } from "../core.ts";
import { decodeFrame, encodeFrame, type Frame, headerValue } from "./pbbp2.ts";

/** A decoded ACK (client → server data frame). */
export interface Ack {
  /** `code` of the ACK payload: 200 on success, 500 when the handler threw. */
  code: number;
  /** `data` base64-decoded and JSON-parsed (the handler's return value). */
  data?: unknown;
  /** `data` as sent (base64), when present. */
  rawData?: string;
  /** The `biz_rt` header (the node-sdk sends 0 or a negative number). */
  bizRt?: string;
  /** The frame group (`message_id` header) it answers. */
  frameId: string;
  sessionId: string;
  at: number;
  /** The raw ACK payload text. */
  payload: string;
}

/** What a session reports to its owner. */
export interface SessionEvents {
  /** A ping arrived (the session is ready from the first one on). */
  onPing(session: Session): void;
  onAck(session: Session, frame: Frame): void;
  onClose(session: Session): void;
  onError(session: Session, where: string, error: unknown): void;
  config(): ClientConfig;
}

const encoder = new TextEncoder();

/** The server side of one WS connection. */
export class Session {
  /** The device id handed out in the URL; also the session id. */
  readonly id: string;
  readonly appId: string;
  readonly serviceId: number;
  readonly openedAt: number;
  /** Pings received. */
  pings = 0;
  /** True after the first ping. */
  ready = false;
  /** When true the session ignores pings and receives no events. */
  silent = false;
  /** True once closed by either side (frames after that are ignored). */
  closed = false;
  readonly #socket: WebSocket;
  readonly #events: SessionEvents;

  /** Wraps an upgraded socket. */
  constructor(
    socket: WebSocket,
    init: {
      id: string;
      appId: string;
      serviceId: number;
      openedAt: number;
      events: SessionEvents;
      /** Be ready at `open` instead of the first ping (reproduces the SDK's listener gap). */
      readyOnOpen?: boolean;
    },
  ) {
    this.#socket = socket;
    this.id = init.id;
    this.appId = init.appId;
    this.serviceId = init.serviceId;
    this.openedAt = init.openedAt;
    this.#events = init.events;
    socket.binaryType = "arraybuffer";
    socket.addEventListener("message", (e) => this.#onMessage(e));
    socket.addEventListener("close", () => this.#markClosed());
    if (init.readyOnOpen) {
      socket.addEventListener("open", () => {
        this.ready = true;
        this.#events.onPing(this);
      });
    }
    socket.addEventListener("error", (e) => {
      this.#events.onError(this, "ws.socket", (e as ErrorEvent).message ?? "socket error");
    });
  }

  /** True when events may be delivered here. */
  get eligible(): boolean {
    return this.ready && !this.silent && !this.closed;
  }

  /** Sends raw bytes (returns false when the socket is not open). */
  sendBytes(bytes: Uint8Array): boolean {
    if (this.closed || this.#socket.readyState !== WebSocket.OPEN) return false;
    try {
      this.#socket.send(bytes);
      return true;
    } catch (error) {
      this.#events.onError(this, "ws.send", error);
      return false;
    }
  }

  /** Encodes and sends a frame. */
  sendFrame(frame: Frame): boolean {
    return this.sendBytes(encodeFrame(frame));
  }

  /** Closes the socket; `graceful` false also stops reading at once. */
  close(graceful: boolean): void {
    if (this.closed) return;
    this.#markClosed();
    try {
      this.#socket.close(
        graceful ? 1000 : 1011,
        graceful ? "normal closure" : "connection dropped",
      );
    } catch (error) {
      this.#events.onError(this, "ws.close", error);
    }
  }

  #markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.#events.onClose(this);
  }

  #onMessage(e: MessageEvent): void {
    if (this.closed) return;
    if (!(e.data instanceof ArrayBuffer)) {
      this.#events.onError(this, "ws.frame", "Expected a binary frame but found text");
      return;
    }
    let frame: Frame;
    try {
      frame = decodeFrame(new Uint8Array(e.data));
    } catch (error) {
      this.#events.onError(this, "ws.frame", error);
      return;
    }
    const type = headerValue(frame, "type");
    if (frame.method === 0 && type === "ping") return this.#onPing();
    if (frame.method === 1) return this.#events.onAck(this, frame);
    this.#events.onError(this, "ws.frame", `Unexpected frame method ${frame.method} type ${type}`);
  }

  #onPing(): void {
    this.pings++;
    this.ready = true;
    if (!this.silent) {
      this.sendFrame({
        SeqID: 0,
        LogID: 0,
        service: this.serviceId,
        method: 0,
        headers: [{ key: "type", value: "pong" }],
        payload: encoder.encode(JSON.stringify(this.#events.config())),
      });
    }
    this.#events.onPing(this);
  }
}

/**
 * Decodes an ACK payload (`{code}` or `{code, data: base64 JSON}`).
 *
 * @example
 * ```ts
 * import { decodeAckPayload } from "./session.ts";
 * const data = btoa(JSON.stringify({ toast: { content: "ok" } }));
 * const ack = decodeAckPayload(JSON.stringify({ code: 200, data }));
 * if (ack.code !== 200 || (ack.data as { toast: { content: string } }).toast.content !== "ok") throw new Error();
 * ```
 */
export function decodeAckPayload(
  text: string,
): Pick<Ack, "code" | "data" | "rawData"> {
  const parsed = JSON.parse(text) as { code?: unknown; data?: unknown };
  if (typeof parsed.code !== "number") {
    throw new Error(`Expected an ACK with a numeric code but found ${text}`);
  }
  if (typeof parsed.data !== "string") return { code: parsed.code };
  const bytes = Uint8Array.from(atob(parsed.data), (c) => c.charCodeAt(0));
  return {
    code: parsed.code,
    rawData: parsed.data,
    data: JSON.parse(new TextDecoder().decode(bytes)),
  };
}
