/**
 * Worker entry (module worker) that decodes Ogg Opus off the main thread, so
 * stdio and WebSocket ACKs never wait on WASM. Answers each request with its
 * id. Spawned only by `decode.ts`.
 * @module
 */

import { createLogger, guardStdout } from "../../core/mod.ts";
import type { DecodeRequest, DecodeResponse } from "./_protocol.ts";
import { AudioDecodeError, opusToWav } from "./opus_to_wav.ts";

/** The slice of the worker global scope this file uses. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<DecodeRequest>) => void) | null;
  postMessage(message: DecodeResponse, transfer?: Transferable[]): void;
}

// A worker's console writes to the process's stdout, which belongs to MCP.
guardStdout(createLogger({ name: "feishu-mcp decode-worker" }));

const scope = self as unknown as WorkerScope;

scope.onmessage = async (event) => {
  const { id, audio } = event.data;
  try {
    const decoded = await opusToWav(new Uint8Array(audio));
    scope.postMessage({ id, ok: true, ...decoded }, [decoded.wav.buffer]);
  } catch (err) {
    scope.postMessage({
      id,
      ok: false,
      error: err instanceof Error ? err.message : String(err),
      decodeError: err instanceof AudioDecodeError,
    });
  }
};
