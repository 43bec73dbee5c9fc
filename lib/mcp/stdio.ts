/**
 * Serving MCP over this process's stdio in both protocol eras, and noticing
 * when the client goes away (stdin EOF, or the parent process dying) so the
 * server exits and releases the bot connection.
 * @module
 */

import process from "node:process";
import { PassThrough } from "node:stream";
import * as sdk from "./_sdk.ts";
import type { McpHandle } from "./server.ts";
import { type ErrorResponse, tidyErrorResponse } from "./_wire_errors.ts";

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** How often to check that the parent still lives (ms); 0 disables. */
  orphanCheckMs?: number;
  /** Awaited after stdin ends, before closing: lets in-flight calls answer. */
  drain?: () => Promise<void>;
  /** Protocol problems the SDK reports out of band (never written to stdout). */
  onerror?: (error: Error) => void;
}

/**
 * Connects the server to stdin/stdout and resolves when the session ends:
 * stdin closed (after the drain), the transport closed, or the parent gone.
 */
export async function serveStdio(handle: McpHandle, options: StdioOptions = {}): Promise<void> {
  // The SDK's transport closes as soon as its input ends, and a closed
  // transport drops the answers of calls still running; so it reads a copy of
  // stdin that ends only after the drain.
  const input = new PassThrough();
  const forward = (chunk: Uint8Array) => input.write(chunk);
  process.stdin.on("data", forward);
  const wire = new ObservedTransport(new sdk.StdioServerTransport(input, process.stdout));
  const connection = sdk.serveStdio(({ era }) => handle.instance(era), {
    transport: wire,
    onerror: options.onerror,
  });

  const parent = Deno.ppid;
  let timer: ReturnType<typeof setInterval> | undefined;
  const ended = new Promise<void>((resolve) => {
    const end = () => resolve();
    process.stdin.once("end", end);
    process.stdin.once("close", end);
    const every = options.orphanCheckMs ?? 2000;
    if (every > 0) {
      timer = setInterval(() => {
        if (Deno.ppid !== parent) end();
      }, every);
    }
  });
  await Promise.race([ended, wire.closed]);
  if (timer !== undefined) clearInterval(timer);
  process.stdin.off("data", forward);
  if (options.drain) await options.drain();
  input.end();
  await connection.close().catch(() => {});
}

/**
 * A transport that passes everything through, says when it closed, and
 * turns the SDK's params-validation dumps into one-line -32602 errors.
 */
class ObservedTransport implements sdk.Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: sdk.Transport["onmessage"];
  readonly closed: Promise<void>;
  #inner: sdk.Transport;
  #resolveClosed!: () => void;
  /** The method of every request not answered yet, so an error can name it. */
  #methods = new Map<string | number, string>();

  constructor(inner: sdk.Transport) {
    this.#inner = inner;
    this.closed = new Promise((r) => (this.#resolveClosed = r));
  }

  start(): Promise<void> {
    this.#inner.onmessage = (message, extra) => {
      if ("method" in message && "id" in message) {
        // Cancelled requests are never answered; keep the map bounded anyway.
        if (this.#methods.size >= 1024) this.#methods.delete(this.#methods.keys().next().value!);
        this.#methods.set(message.id, message.method);
      }
      this.onmessage?.(message, extra);
    };
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => {
      this.#resolveClosed();
      this.onclose?.();
    };
    return this.#inner.start();
  }

  send(...[message, options]: Parameters<sdk.Transport["send"]>): Promise<void> {
    if (!("id" in message) || "method" in message || message.id === undefined) {
      return this.#inner.send(message, options);
    }
    const method = this.#methods.get(message.id);
    this.#methods.delete(message.id);
    const out = "error" in message
      ? tidyErrorResponse(message as ErrorResponse, method) as typeof message
      : message;
    return this.#inner.send(out, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
