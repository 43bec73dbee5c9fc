/**
 * The frame of each conversation's Task Card (the default scope): the rows
 * attributed to its route (see attribute.ts) projected on their own, grouped
 * by provider round, with the telemetry of the turns it took part in, the
 * programmable slot when it was written while the agent worked for that
 * route alone, and, while its turn is open, a neutral count of the steps the
 * agent took elsewhere since the turn began (never their text, tool,
 * action or reasoning).
 * @module
 */

import { type Assignment, type Attributor, rowTime } from "./attribute.ts";
import { type CardLook, renderFrame } from "./look.ts";
import {
  emptyState,
  type EventsLogLine,
  mergeChunk,
  type ProjectionState,
  type Redact,
} from "./project.ts";

/** One attributed line: the line, where it went and when it was written (epoch ms). */
export interface AttributedLine {
  line: EventsLogLine;
  assignment: Assignment;
  at: number;
}

/** What a batch of lines changed: routes that took rows, routes whose neutral count moved. */
export interface FrameChanges {
  own: Set<string>;
  counted: Set<string>;
}

/** The per-route frames. */
export class RouteFrames {
  readonly #redact: Redact;
  readonly #states = new Map<string, ProjectionState>();
  /** Open turns: when each began and the steps taken elsewhere since. */
  readonly #turns = new Map<string, { since: number; others: number }>();
  readonly #slots = new Map<string, string>();

  constructor(redact: Redact) {
    this.#redact = redact;
  }

  /** Open turns by route, with the time each began (what attribution needs). */
  turns(): Map<string, number> {
    return new Map([...this.#turns].map(([k, t]) => [k, t.since]));
  }

  /** Whether the route's turn is open. */
  working(key: string): boolean {
    return this.#turns.has(key);
  }

  /** A turn begins in the route (a wake while one is open changes nothing). */
  open(key: string, since: number): void {
    if (!this.#turns.has(key)) this.#turns.set(key, { since, others: 0 });
  }

  /** The route's turn ended; true when its frame changes (the neutral line goes). */
  close(key: string): boolean {
    const t = this.#turns.get(key);
    this.#turns.delete(key);
    return (t?.others ?? 0) > 0;
  }

  /**
   * Attributes lines a poll appended (read at `seen`, epoch ms) to the open
   * turns and merges them (see {@link RouteFrames.apply}).
   */
  take(lines: readonly EventsLogLine[], attributor: Attributor, seen: number): FrameChanges {
    if (lines.length === 0) return { own: new Set(), counted: new Set() };
    const rows = lines.map((line) => ({ value: line.value, at: rowTime(line.value, seen) }));
    const assigned = attributor.assign(rows, this.turns());
    return this.apply(
      lines.map((line, i) => ({ line, assignment: assigned[i]!, at: rows[i]!.at })),
    );
  }

  /**
   * Merges attributed lines into their routes: the routes that took rows,
   * and those whose count of steps elsewhere changed.
   */
  apply(lines: readonly AttributedLine[]): FrameChanges {
    const byRoute = new Map<string, EventsLogLine[]>();
    const counted = new Set<string>();
    for (const { line, assignment, at } of lines) {
      for (const key of assignment.routes) {
        const list = byRoute.get(key);
        if (list) list.push(line);
        else byRoute.set(key, [line]);
      }
      if (!assignment.visible) continue;
      for (const [key, turn] of this.#turns) {
        if (turn.since <= at && !assignment.routes.includes(key)) {
          turn.others++;
          counted.add(key);
        }
      }
    }
    for (const [key, list] of byRoute) {
      this.#states.set(key, mergeChunk(this.#states.get(key) ?? emptyState(), list, this.#redact));
    }
    return { own: new Set(byRoute.keys()), counted };
  }

  /** Shows `body` as the route's programmable section; true when that changed it. */
  setSlot(key: string, body: string): boolean {
    if (this.#slots.get(key) === body) return false;
    this.#slots.set(key, body);
    return true;
  }

  /** Takes the programmable section off every card; the routes that had one. */
  clearSlots(): string[] {
    const keys = [...this.#slots.keys()];
    this.#slots.clear();
    return keys;
  }

  /** The route's frame at `nowMs`, in the card's look. */
  render(key: string, normalRows: number, look: CardLook, nowMs: number): string {
    const state = this.#states.get(key);
    return renderFrame(
      { groups: state?.groups ?? [], metadata: state?.metadata ?? null },
      normalRows,
      this.#slots.get(key) ?? null,
      look,
      nowMs,
      this.#turns.get(key)?.others ?? 0,
    );
  }

  /** Forgets everything about the route (its binding expired). */
  forget(key: string): void {
    this.#states.delete(key);
    this.#turns.delete(key);
    this.#slots.delete(key);
  }
}
