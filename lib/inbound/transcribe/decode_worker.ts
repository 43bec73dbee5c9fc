/**
 * The decode worker: decodes Ogg Opus off the main thread, so stdio and
 * WebSocket ACKs never wait on WASM. Announces itself ready, then answers
 * each request with its id.
 *
 * Started by `decode.ts` through its `JobRunner` of kind `"decode"`. It serves only
 * in such a worker, so the single-file bundle can start itself as the worker
 * (see `lib/core/worker.ts`).
 * @module
 */

import { createLogger, guardStdout, serveWorker } from "../../core/mod.ts";
import {
  type DecodeJob,
  type DecodeResponse,
  isDecodeWorker,
  type WorkerReady,
} from "./_protocol.ts";
import { AudioDecodeError } from "./decoded.ts";
import { opusToWav } from "./opus_to_wav.ts";

/** The slice of the worker global scope used here. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<DecodeJob>) => void) | null;
  postMessage(message: DecodeResponse | WorkerReady, transfer?: Transferable[]): void;
}

/** Serves decoding requests in the current worker. Does nothing outside a decode worker. */
export function serveDecodeRequests(): void {
  if (!isDecodeWorker()) return;
  // A worker's console writes to the process's stdout, which belongs to MCP.
  guardStdout(createLogger({ name: "feishu-mcp decode-worker" }));
  const scope = globalThis as unknown as WorkerScope;
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
  scope.postMessage({ ready: true });
}

serveWorker("decode", serveDecodeRequests);
