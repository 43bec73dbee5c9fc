/**
 * Messages between `decode.ts` (main thread) and `decode_worker.ts`.
 * @module
 */

import type { DecodedWav } from "./opus_to_wav.ts";

/** One decoding job; `audio` is transferred, not copied. */
export interface DecodeRequest {
  id: number;
  audio: ArrayBuffer;
}

/** The answer to the request with the same `id`. */
export type DecodeResponse =
  | ({ id: number; ok: true } & DecodedWav)
  | { id: number; ok: false; error: string; decodeError: boolean };
