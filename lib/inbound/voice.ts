/**
 * The transcription stage: the first downloaded audio attachment goes to the
 * operator's transcriber; a transcript becomes `voice_transcript` and the
 * message text; a failure (or no transcriber) is recorded on the attachment
 * and never collapses the message: it keeps its placeholder text and its
 * audio file.
 * @module
 */

import type { Transcriber } from "./transcribe/mod.ts";
import type { IncomingMessageRecord } from "../store/mod.ts";

export type { Transcriber } from "./transcribe/mod.ts";

/** Transcribes the record's audio in place. */
export async function transcribeRecord(
  record: IncomingMessageRecord,
  options: { transcriber: Transcriber; workDir: string; signal?: AbortSignal },
): Promise<void> {
  const audio = record.attachments.find((a) => a.type === "audio");
  if (!audio) return;
  if (audio.status !== "downloaded") {
    audio.transcription_status = "skipped";
    return;
  }
  const res = await options.transcriber.transcribe({
    audioPath: audio.path,
    workDir: options.workDir,
    signal: options.signal,
  });
  if (res.status === "completed") {
    audio.transcription_status = "completed";
    record.voice_transcript = res.transcript;
    record.text = res.transcript.text;
  } else {
    audio.transcription_status = "failed";
    audio.transcription_error = res.error;
  }
}
