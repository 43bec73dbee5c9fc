/**
 * Data shapes shared by the emulator's areas (the core, the Open API side,
 * the fault state and the long connection). A leaf: it imports nothing, so
 * any module can take a type from here without importing the module that
 * works on it, and the emulator's files import each other without cycles.
 * @module
 */

/** One part of a multipart body. */
export interface MultipartPart {
  /** The form field name. */
  name: string;
  /** The `filename` parameter, when the sender gave one. */
  filename?: string;
  /** The part's `Content-Type`, when given. */
  contentType?: string;
  /** The exact bytes of the part body. */
  data: Uint8Array;
}

/** The `type` header of a data frame. */
export type FrameType = "event" | "card";

/** One logged HTTP request (control-plane calls are not logged). */
export interface RequestRecord {
  seq: number;
  at: number;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body, when the body was JSON. */
  body?: unknown;
  /** Multipart parts, when the body was multipart. */
  parts?: MultipartPart[];
  /** Response status and Feishu code, filled in when the response is ready. */
  status?: number;
  code?: number;
  /** True when a fault rule answered it. */
  faulted?: boolean;
}

/** A canned answer. Without `status` and `code` it only delays (`delayMs`) and passes through. */
export interface FaultResponse {
  /** HTTP status (default 400 when `code` is set). */
  status?: number;
  /** Feishu code for the error envelope. */
  code?: number;
  msg?: string;
  headers?: Record<string, string>;
  /** Wait this long (emulator clock) before answering. */
  delayMs?: number;
}

/** A fault rule. `path` is an exact path, a `:param` pattern or a RegExp. */
export interface FaultRule {
  method?: string;
  path: string | RegExp;
  /** How many requests it answers (default: every one until cleared). */
  times?: number;
  /**
   * A further test of the request (its body, query, the chat it concerns),
   * for faults that hit one conversation only; in-process use.
   */
  when?: (request: RequestRecord) => boolean;
  /**
   * The answer; "hang" never answers (until close), "reset" breaks the connection.
   * "hang-after" and "reset-after" carry the request out first (the message is
   * created) and then lose its answer the same way: Feishu did it, the caller
   * cannot know.
   */
  respond: FaultResponse | "hang" | "reset" | "hang-after" | "reset-after";
}

/**
 * What the Open API side asks of the fault state (`Faults` in `faults.ts`):
 * the rule for a request, and the two rate limiters.
 */
export interface FaultGate {
  /** Takes the first matching rule, counting down its `times`. */
  take(method: string, path: string, request?: RequestRecord): FaultRule | undefined;
  /** Counts an API call of the app; throws 429/99991400 past the app limit. */
  checkApp(appId: string): void;
  /** Counts a send/reply to a chat; throws 230020 past the chat limit. */
  checkChat(chatId: string): void;
}
