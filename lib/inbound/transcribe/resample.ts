/**
 * Turns decoded audio (float channels at 48 kHz) into what speech engines
 * expect: one channel at 16 kHz, 16-bit. Downmix by averaging, then a
 * Kaiser-windowed sinc low-pass evaluated only at the kept samples
 * (decimation), so content above the new Nyquist frequency is removed instead
 * of folding back into the speech band. Pure; no I/O.
 * @module
 */

/** The sample rate transcribers are fed. */
export const TARGET_SAMPLE_RATE = 16000;

/** Options of {@link lowPassTaps}. */
export interface LowPassOptions {
  /** The -6 dB point, as a fraction of the input sample rate (0 < cutoff < 0.5). */
  cutoff: number;
  /** Width of the band from pass to stop, as a fraction of the input rate. */
  transition: number;
  /** Stop-band attenuation in dB; default 80. */
  attenuationDb?: number;
}

/**
 * Designs a linear-phase FIR low-pass (Kaiser window method). The taps are
 * symmetric, odd in number and sum to 1 (unit gain at DC).
 *
 * @example
 * ```ts
 * import { lowPassTaps } from "./resample.ts";
 * const h = lowPassTaps({ cutoff: 0.15625, transition: 1 / 48 });
 * const sum = h.reduce((a, b) => a + b, 0);
 * if (h.length % 2 !== 1 || Math.abs(sum - 1) > 1e-9) throw new Error();
 * ```
 */
export function lowPassTaps(options: LowPassOptions): Float64Array {
  const { cutoff, transition } = options;
  const attenuation = options.attenuationDb ?? 80;
  if (!(cutoff > 0 && cutoff < 0.5)) {
    throw new RangeError(`Expected cutoff between 0 and 0.5 but found ${cutoff}`);
  }
  if (!(transition > 0 && transition < 0.5)) {
    throw new RangeError(`Expected transition between 0 and 0.5 but found ${transition}`);
  }
  const beta = kaiserBeta(attenuation);
  let length = Math.ceil((attenuation - 8) / (2.285 * 2 * Math.PI * transition)) + 1;
  if (length % 2 === 0) length++;
  const middle = (length - 1) / 2;
  const taps = new Float64Array(length);
  const norm = besselI0(beta);
  let sum = 0;
  for (let n = 0; n < length; n++) {
    const t = n - middle;
    const ratio = middle === 0 ? 0 : t / middle;
    const window = besselI0(beta * Math.sqrt(Math.max(0, 1 - ratio * ratio))) / norm;
    const x = 2 * cutoff * t;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    taps[n] = 2 * cutoff * sinc * window;
    sum += taps[n]!;
  }
  for (let n = 0; n < length; n++) taps[n] = taps[n]! / sum;
  return taps;
}

const tapCache = new Map<number, Float64Array>();

/** The anti-alias filter for an integer decimation `factor`: pass to 7/16 of the new rate, stop from its Nyquist. */
function decimationTaps(factor: number): Float64Array {
  let taps = tapCache.get(factor);
  if (taps === undefined) {
    const nyquist = 0.5 / factor;
    taps = lowPassTaps({ cutoff: nyquist * 15 / 16, transition: nyquist / 8 });
    tapCache.set(factor, taps);
  }
  return taps;
}

/**
 * Resamples mono audio to {@link TARGET_SAMPLE_RATE} when the input rate is
 * a whole multiple of it (Opus always decodes at 48 kHz): low-pass, then keep
 * every `factor`-th sample. The filter is centred, so there is no delay; the
 * signal is zero-padded at both ends. Output length is `ceil(n / factor)`.
 *
 * @example A constant signal keeps its level
 * ```ts
 * import { resampleTo16k } from "./resample.ts";
 * const out = resampleTo16k(new Float32Array(4800).fill(0.5), 48000);
 * if (out.length !== 1600 || Math.abs(out[800]! - 0.5) > 1e-6) throw new Error();
 * ```
 */
export function resampleTo16k(samples: Float32Array, inputRate: number): Float32Array {
  if (!Number.isInteger(inputRate) || inputRate % TARGET_SAMPLE_RATE !== 0 || inputRate <= 0) {
    throw new RangeError(
      `Expected an input rate that is a whole multiple of ${TARGET_SAMPLE_RATE} but found ${inputRate}`,
    );
  }
  const factor = inputRate / TARGET_SAMPLE_RATE;
  if (factor === 1) return samples.slice();
  const taps = decimationTaps(factor);
  const half = (taps.length - 1) / 2;
  const out = new Float32Array(Math.ceil(samples.length / factor));
  for (let m = 0; m < out.length; m++) {
    const centre = m * factor;
    const from = Math.max(0, centre - half);
    const to = Math.min(samples.length - 1, centre + half);
    let acc = 0;
    for (let i = from; i <= to; i++) acc += samples[i]! * taps[centre - i + half]!;
    out[m] = acc;
  }
  return out;
}

/**
 * Mixes channels down to one by averaging them.
 *
 * @example
 * ```ts
 * import { downmix } from "./resample.ts";
 * const m = downmix([new Float32Array([1, 0]), new Float32Array([0, 0.5])]);
 * if (m[0] !== 0.5 || m[1] !== 0.25) throw new Error();
 * ```
 */
export function downmix(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0];
  if (first === undefined) throw new RangeError("Expected at least one channel but found none");
  if (channels.length === 1) return first.slice();
  const out = new Float32Array(first.length);
  for (const ch of channels) {
    if (ch.length !== first.length) {
      throw new RangeError(
        `Expected channels of equal length ${first.length} but found ${ch.length}`,
      );
    }
    for (let i = 0; i < out.length; i++) out[i] = out[i]! + ch[i]!;
  }
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / channels.length;
  return out;
}

/**
 * Converts float samples in [-1, 1] to 16-bit integers, rounding and clipping
 * anything outside the range.
 *
 * @example
 * ```ts
 * import { toPcm16 } from "./resample.ts";
 * const p = toPcm16(new Float32Array([0, 1, -1, 2, 0.5]));
 * if (p.join() !== "0,32767,-32767,32767,16384") throw new Error(p.join());
 * ```
 */
export function toPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    out[i] = Math.round(s * 32767);
  }
  return out;
}

function kaiserBeta(attenuation: number): number {
  if (attenuation > 50) return 0.1102 * (attenuation - 8.7);
  if (attenuation >= 21) {
    return 0.5842 * Math.pow(attenuation - 21, 0.4) + 0.07886 * (attenuation - 21);
  }
  return 0;
}

/** Modified Bessel function of the first kind, order 0 (power series). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 64; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-16) break;
  }
  return sum;
}
