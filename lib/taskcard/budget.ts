/**
 * The Task Cards' write budget, as bookkeeping (no I/O, times are given):
 *
 * - which routes a change may touch: those active (woken, or a message seen
 *   there) within the active window;
 * - what each card last showed, without its time line, and when: a frame
 *   equal to it is never written again;
 * - when a card may move below newer messages: at most once per turn (from
 *   a wake of the route until its request is finished). Messages landing
 *   below the card only mark it superseded; it moves at the wake that opens
 *   a turn when something other than that wake was posted below it
 *   meanwhile, else once when the turn finishes if it is superseded then
 *   (so it ends below the agent's final answer), and otherwise is edited in
 *   place;
 * - which routes have been idle past retention.
 * @module
 */

/** Dropped cards remembered, so a card sent afresh never reuses an old one's uuid. */
const DROPPED_MEMORY = 1024;

/** The budget of all routes. */
export class WriteBudget {
  readonly #activeMs: number;
  readonly #retentionMs: number;
  /** Last activity (wake or message) per route, epoch ms. */
  readonly #active = new Map<string, number>();
  /** The last frame written per route (rendered at a fixed time). */
  readonly #last = new Map<string, string>();
  readonly #at = new Map<string, number>();
  /** Routes whose turn is open. */
  readonly #open = new Set<string>();
  /** Routes whose card already moved in their open turn. */
  readonly #moved = new Set<string>();
  /** Routes whose card is to move at its next delivery. */
  readonly #due = new Set<string>();
  /** The last card of each route whose binding was dropped (kept past forget; bounded). */
  readonly #dropped = new Map<string, string>();

  constructor(options: { activeMs: number; retentionMs: number }) {
    this.#activeMs = options.activeMs;
    this.#retentionMs = options.retentionMs;
  }

  /** The route was active at `at` (never moves its time back). */
  seen(key: string, at: number): void {
    const had = this.#active.get(key);
    if (had === undefined || at > had) this.#active.set(key, at);
  }

  /** Whether the route was active within the window before `now`. */
  isActive(key: string, now: number): boolean {
    return now - (this.#active.get(key) ?? Number.NEGATIVE_INFINITY) <= this.#activeMs;
  }

  /** The routes active within the window, the most recent first. */
  activeRoutes(now: number): string[] {
    return [...this.#active].filter(([, at]) => now - at <= this.#activeMs)
      .sort((a, b) => b[1] - a[1]).map(([key]) => key);
  }

  /** Routes idle past retention at `now`. */
  expired(now: number): string[] {
    return [...this.#active].filter(([, at]) => now - at > this.#retentionMs).map(([k]) => k);
  }

  /** The oldest activity a route may have and keep its binding. */
  retainedSince(now: number): number {
    return now - this.#retentionMs;
  }

  /** Whether `frame` is what the route's card last showed. */
  unchanged(key: string, frame: string): boolean {
    return this.#last.get(key) === frame;
  }

  /** The route's card shows `frame` since `at` (null: it shows nothing known). */
  written(key: string, frame: string | null, at = 0): void {
    if (frame === null) {
      this.#last.delete(key);
      this.#at.delete(key);
    } else {
      this.#last.set(key, frame);
      this.#at.set(key, at);
    }
  }

  /** When the route's card was last written (never: minus infinity). */
  writtenAt(key: string): number {
    return this.#at.get(key) ?? Number.NEGATIVE_INFINITY;
  }

  /**
   * A wake opens a turn (a wake inside an open turn changes nothing): the
   * card moves at this wake when it was already superseded before it.
   */
  begin(key: string, stale: boolean): void {
    if (this.#open.has(key)) return;
    this.#open.add(key);
    this.#moved.delete(key);
    if (stale) this.#due.add(key);
  }

  /** The turn ended; a card superseded now moves once, unless it moved in this turn. */
  end(key: string, superseded: boolean): void {
    if (!this.#open.delete(key)) return;
    if (superseded && !this.#moved.has(key)) this.#due.add(key);
    this.#moved.delete(key);
  }

  /** Whether the route's card is to move below newer messages at its next delivery. */
  rotateDue(key: string): boolean {
    return this.#due.has(key);
  }

  /** A delivery ran with the move allowed: the card moved (or had nothing below it). */
  rotated(key: string, moved: boolean): void {
    this.#due.delete(key);
    if (moved && this.#open.has(key)) this.#moved.add(key);
  }

  /** The route's binding to `residentId` was dropped (`/taskcard off`, retention). */
  dropped(key: string, residentId: string): void {
    this.#last.delete(key);
    this.#at.delete(key);
    this.#due.delete(key);
    this.#dropped.delete(key);
    this.#dropped.set(key, residentId);
    if (this.#dropped.size > DROPPED_MEMORY) {
      this.#dropped.delete(this.#dropped.keys().next().value!);
    }
  }

  /** The card the route's last dropped binding was bound to, if remembered. */
  droppedCard(key: string): string | null {
    return this.#dropped.get(key) ?? null;
  }

  /** Forgets the route (but not its dropped card). */
  forget(key: string): void {
    this.#active.delete(key);
    this.#last.delete(key);
    this.#at.delete(key);
    this.#open.delete(key);
    this.#moved.delete(key);
    this.#due.delete(key);
  }

  /** How many routes are known to the budget. */
  get size(): number {
    return this.#active.size;
  }
}
