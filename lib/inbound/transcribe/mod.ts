/**
 * Voice transcription, the step of inbound processing between attachment
 * download and the record write. Feishu voice is Ogg Opus: it is decoded by
 * WASM in a Web Worker to a 16 kHz mono WAV, then the operator's command
 * (whisper.cpp style, config key `transcriber`) turns it into text. Without a configured
 * command the result is the failure `"no transcriber configured"` and the
 * audio file stays the agent's to open.
 *
 * ```ts
 * import { createTranscriber } from "./mod.ts";
 * import { createLogger, systemClock } from "../../core/mod.ts";
 * await using transcriber = createTranscriber(
 *   { command: ["whisper-cli", "-m", "/models/ggml-base.bin", "-l", "auto", "-nt", "-f", "{wav}"] },
 *   { clock: systemClock, log: createLogger() },
 * );
 * if (!transcriber.configured) throw new Error();
 * ```
 * @module
 */

export { createTranscriber, type Transcriber } from "./transcriber.ts";
export { isDecodeWorker } from "./_protocol.ts";
