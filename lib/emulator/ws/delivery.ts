/**
 * Event delivery over the long connection: one record per event, pushed to
 * one eligible session of the app (cluster mode), queued while none is up,
 * fragmented on request, sent as a `type=event` or `type=card` frame,
 * matched to its ACK by the frame `message_id`, and pushed again with the
 * same `event_id` when no ACK with code 200 came within the ACK timeout (on
 * the emulator clock): Feishu counts an event as delivered only when the
 * client processed it without an error, and the node-sdk answers `{code:
 * 500}` when its handler throws. A callback (a card click) is never pushed
 * again: when its ACK timeout passes it times out, and ACKs after that are
 * kept as late.
 * @module
 */

import type { Core } from "../core.ts";
import { ID_PREFIX } from "../ids.ts";
import type { FrameType } from "../types.ts";
import type { EventEnvelope } from "../views.ts";
import { type Frame, headerValue } from "./pbbp2.ts";
import { type Ack, decodeAckPayload, type Session } from "./session.ts";

/** How to push one event. */
export interface PushOptions {
  /** Split the payload into this many fragments (default 1). */
  fragments?: number;
  /** Fragment send order (default "forward"); an array lists `seq` values. */
  order?: "forward" | "reverse" | number[];
  /** Push the event twice at once (a duplicate delivery). */
  duplicate?: boolean;
  /** Called with the first ACK before `ack` resolves (card clicks apply results here). */
  onAck?: (ack: Ack) => void;
  /**
   * Feishu gave up on this event (say, the app was offline through every
   * retry): it is recorded as `expired` and never pushed. The message itself
   * stays listable, so only a history backfill can find it.
   */
  lost?: boolean;
  /**
   * The frame's `type` header (default "event"). The node-sdk 1.74 drops a
   * `card` frame without answering it; an ACK for one is matched by frame id
   * like any other.
   */
  frameType?: FrameType;
  /**
   * A callback, as Feishu treats `card.action.trigger`: pushed once and
   * never again. Its ACK timeout runs from the push (queued or not); when it
   * passes without an ACK the record turns `timed_out`, `onTimeout` is
   * called, and ACKs after that go to `lateAcks` without calling `onAck`.
   */
  callback?: boolean;
  /** Called once when a callback times out. */
  onTimeout?: () => void;
}

/** One sending of an event. */
export interface DeliveryAttempt {
  frameId: string;
  sessionId: string;
  at: number;
  fragments: number;
  reason: "first" | "redelivery" | "duplicate";
}

/** Delivery state of an event. */
export type DeliveryStatus = "queued" | "delivered" | "acked" | "expired" | "timed_out";

/** One event and everything that happened to it. */
export interface EventRecord {
  eventId: string;
  eventType: string;
  appId: string;
  envelope: EventEnvelope;
  createdAt: number;
  /** The `type` header its frames carry. */
  frameType: FrameType;
  /** True for a callback (pushed once; times out instead of being pushed again). */
  callback: boolean;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Redeliveries after an ACK timeout. */
  redeliveries: number;
  /** The first accepted ACK (code 200; any code for a callback). */
  ack?: Ack;
  /** Every accepted ACK (duplicates included). */
  acks: Ack[];
  /**
   * ACKs of an event (not a callback) whose code is not 200: each is a failed
   * delivery, and the event is pushed again when its ACK timeout passes, as
   * if no ACK had come.
   */
  failedAcks: Ack[];
  /** ACKs received while ACK handling was withheld. */
  ignoredAcks: Ack[];
  /** ACKs of a callback that arrived after it timed out (never applied). */
  lateAcks: Ack[];
  /** Resolves with the client's first answer, whatever its code (a failed one included). */
  ackPromise: Promise<Ack>;
}

interface Internal {
  record: EventRecord;
  options: PushOptions;
  resolve: (ack: Ack) => void;
  timer?: number;
}

const encoder = new TextEncoder();

/** Splits bytes into `n` near-equal fragments (at least one byte each). */
function split(bytes: Uint8Array, n: number): Uint8Array[] {
  const count = Math.max(1, Math.min(Math.trunc(n), bytes.length));
  const size = Math.ceil(bytes.length / count);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return out;
}

function orderOf(n: number, order: PushOptions["order"]): number[] {
  const forward = Array.from({ length: n }, (_, i) => i);
  if (order === "reverse") return forward.reverse();
  if (Array.isArray(order)) return order.filter((i) => i >= 0 && i < n);
  return forward;
}

/** Owns every event record of one emulator. */
export class Deliveries {
  /** Records in push order. */
  readonly records: EventRecord[] = [];
  /** ACKs whose frame id matched no pushed frame (e.g. one answering `sendCardFrame`). */
  readonly unmatchedAcks: Ack[] = [];
  /** When true, ACKs are recorded as ignored and do not settle anything. */
  ignoreAcks = false;
  readonly #core: Core;
  readonly #pick: (appId: string) => Session | undefined;
  readonly #byId = new Map<string, Internal>();
  readonly #byFrame = new Map<string, Internal>();
  #seq = 0;

  /** `pick` chooses an eligible session for an app (cluster mode). */
  constructor(core: Core, pick: (appId: string) => Session | undefined) {
    this.#core = core;
    this.#pick = pick;
  }

  /** The record of an event id. */
  get(eventId: string): EventRecord | undefined {
    return this.#byId.get(eventId)?.record;
  }

  /** Pushes an event now, or queues it while no session can take it. */
  push(appId: string, envelope: EventEnvelope, options: PushOptions = {}): EventRecord {
    let resolve!: (ack: Ack) => void;
    const ackPromise = new Promise<Ack>((r) => (resolve = r));
    const record: EventRecord = {
      eventId: envelope.header.event_id,
      eventType: envelope.header.event_type,
      appId,
      envelope,
      createdAt: this.#core.clock.now(),
      frameType: options.frameType ?? "event",
      callback: options.callback === true,
      status: "queued",
      attempts: [],
      redeliveries: 0,
      acks: [],
      failedAcks: [],
      ignoredAcks: [],
      lateAcks: [],
      ackPromise,
    };
    const internal: Internal = { record, options, resolve };
    this.records.push(record);
    this.#byId.set(record.eventId, internal);
    if (options.lost) {
      record.status = "expired";
      this.#core.feed.emit({ kind: "event.delivered", event_id: record.eventId });
      return record;
    }
    if (record.callback) this.#arm(internal);
    const session = this.#pick(appId);
    if (session) {
      this.#send(internal, session, "first");
      if (options.duplicate) this.#send(internal, session, "duplicate");
    } else {
      this.#core.feed.emit({ kind: "event.queued", event_id: record.eventId });
    }
    return record;
  }

  /** Sends every queued event of `appId` (a session just became eligible). */
  flush(appId: string): void {
    for (const record of this.records) {
      if (record.appId !== appId || record.status !== "queued") continue;
      const session = this.#pick(appId);
      if (!session) return;
      const internal = this.#byId.get(record.eventId);
      if (!internal) continue;
      this.#send(internal, session, record.attempts.length === 0 ? "first" : "redelivery");
    }
  }

  /** Sends an event once more right now (duplicate delivery on demand). */
  duplicate(eventId: string): boolean {
    const internal = this.#byId.get(eventId);
    if (!internal) return false;
    const session = this.#pick(internal.record.appId);
    if (!session) return false;
    this.#send(internal, session, "duplicate");
    return true;
  }

  /** Handles an ACK frame from a session. */
  onAckFrame(session: Session, frame: Frame): void {
    const frameId = headerValue(frame, "message_id") ?? "";
    const text = new TextDecoder().decode(frame.payload ?? new Uint8Array());
    let decoded: Pick<Ack, "code" | "data" | "rawData">;
    try {
      decoded = decodeAckPayload(text);
    } catch (error) {
      this.#core.recordError("ws.ack", error);
      return;
    }
    const ack: Ack = {
      ...decoded,
      bizRt: headerValue(frame, "biz_rt"),
      frameId,
      sessionId: session.id,
      at: this.#core.clock.now(),
      payload: text,
    };
    const internal = this.#byFrame.get(frameId);
    if (!internal) {
      this.unmatchedAcks.push(ack);
      this.#core.feed.emit({ kind: "event.acked" });
      return;
    }
    const { record } = internal;
    const announce = () => this.#core.feed.emit({ kind: "event.acked", event_id: record.eventId });
    if (this.ignoreAcks) {
      record.ignoredAcks.push(ack);
      return announce();
    }
    if (record.status === "timed_out") {
      record.lateAcks.push(ack);
      return announce();
    }
    if (ack.code !== 200 && !record.callback) {
      // A failed delivery: the ACK timer stays armed, so the timeout pushes it again.
      record.failedAcks.push(ack);
      internal.resolve(ack); // `ack` settles with the first answer, whatever its code
      return announce();
    }
    record.acks.push(ack);
    if (record.ack) return announce();
    record.ack = ack;
    record.status = "acked";
    if (internal.timer !== undefined) this.#core.clock.clearTimer(internal.timer);
    internal.timer = undefined;
    try {
      internal.options.onAck?.(ack);
    } catch (error) {
      this.#core.recordError("ws.onAck", error);
    }
    internal.resolve(ack);
    announce();
  }

  #send(internal: Internal, session: Session, reason: DeliveryAttempt["reason"]): void {
    const { record, options } = internal;
    const frameId = this.#core.ids.next(ID_PREFIX.frame);
    const traceId = this.#core.ids.next(ID_PREFIX.trace);
    const parts = split(encoder.encode(JSON.stringify(record.envelope)), options.fragments ?? 1);
    const seq = ++this.#seq;
    for (const i of orderOf(parts.length, options.order)) {
      session.sendFrame({
        SeqID: seq,
        LogID: seq,
        service: session.serviceId,
        method: 1,
        headers: [
          { key: "type", value: record.frameType },
          { key: "message_id", value: frameId },
          { key: "sum", value: String(parts.length) },
          { key: "seq", value: String(i) },
          { key: "trace_id", value: traceId },
        ],
        payload: parts[i],
      });
    }
    this.#byFrame.set(frameId, internal);
    record.attempts.push({
      frameId,
      sessionId: session.id,
      at: this.#core.clock.now(),
      fragments: parts.length,
      reason,
    });
    if (reason === "redelivery") record.redeliveries++;
    if (record.status !== "acked" && record.status !== "timed_out") {
      record.status = "delivered";
      if (!record.callback) this.#arm(internal);
    }
    this.#core.feed.emit({
      kind: "event.delivered",
      event_id: record.eventId,
      session_id: session.id,
    });
  }

  #arm(internal: Internal): void {
    const clock = this.#core.clock;
    if (internal.timer !== undefined) clock.clearTimer(internal.timer);
    internal.timer = clock.setTimer(this.#core.settings.ackTimeoutMs, () => {
      internal.timer = undefined;
      this.#onTimeout(internal);
    });
  }

  #onTimeout(internal: Internal): void {
    const { record } = internal;
    if (record.ack) return;
    if (record.callback) {
      record.status = "timed_out";
      this.#core.feed.emit({ kind: "event.timed_out", event_id: record.eventId });
      try {
        internal.options.onTimeout?.();
      } catch (error) {
        this.#core.recordError("ws.onTimeout", error);
      }
      return;
    }
    if (record.redeliveries >= this.#core.settings.maxRedeliveries) {
      record.status = "expired";
      this.#core.feed.emit({ kind: "event.delivered", event_id: record.eventId });
      return;
    }
    const session = this.#pick(record.appId);
    if (session) this.#send(internal, session, "redelivery");
    else {
      record.status = "queued";
      this.#core.feed.emit({ kind: "event.queued", event_id: record.eventId });
    }
  }
}
