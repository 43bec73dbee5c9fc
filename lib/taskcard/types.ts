/**
 * The shapes the Task Card is built from: public rows projected from the
 * agent's `logs/events.jsonl`, grouped by provider round, plus the session
 * telemetry of the latest final-carrier row.
 * @module
 */

/** A tool call as the card may show it (never its arguments or result). */
export interface ToolRow {
  kind: "tool";
  tool: string;
  /** The call's public `_reasoning`, redacted and capped. */
  reasoning: string;
  /** Join key of the call's result (internal; never rendered). */
  _tool_call_id?: string;
  /** Pending (`???`) until its result arrives. */
  status?: "???" | "success" | "error";
  tool_action?: string;
  /** When the call started (epoch ms), shown as a clock time in the agent's zone. */
  started_ms?: number;
  elapsed_s?: number;
}

/** The model's public response text of one round. */
export interface TextRow {
  kind: "text";
  text: string;
}

/** A row of the card. */
export type Row = ToolRow | TextRow;

/** The rows of one provider round (`api_call_id`), in log order. */
export interface Group {
  api_call_id: string;
  events: Row[];
}

/** Session telemetry copied from the latest final-carrier row (numbers only by key). */
export type Metadata = Record<string, unknown>;

/** What the events log currently projects. */
export interface Projection {
  groups: Group[];
  /** Null until a final-carrier row was seen; `{}` when the latest one had no usage. */
  metadata: Metadata | null;
}

/** When a frame is rendered, and the IANA time zone its clock times are shown in. */
export interface RenderTime {
  ms: number;
  zone: string;
}
