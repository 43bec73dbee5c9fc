/**
 * What decoding produces and how it fails; shared by the worker and the
 * main-thread side without loading the WASM decoder.
 * @module
 */

/** A decoded voice message, ready for a transcriber. */
export interface DecodedWav {
  /** The complete WAV file: mono, 16 kHz, 16-bit PCM. */
  wav: Uint8Array<ArrayBuffer>;
  /** Number of 16 kHz samples in `wav`. */
  samples: number;
  /** `samples / 16000`, rounded to 0.01 s. */
  durationSeconds: number;
  /** Channel count of the source stream. */
  sourceChannels: number;
  /** Frames the decoder reported as damaged but skipped. */
  damagedFrames: number;
}

/** The audio could not be decoded (or decoding was stopped); the message says why. */
export class AudioDecodeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AudioDecodeError";
  }
}
