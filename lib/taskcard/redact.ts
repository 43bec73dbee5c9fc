/**
 * The redaction pass every text the Task Card shows goes through.
 * (Interim: only bearer tokens; the full token and secret-assignment pass
 * replaces this module.)
 * @module
 */

/** Replaces secrets in `text` by `<REDACTED:kind>` placeholders. */
export function redactText(text: string): string {
  return text.replace(/\bBearer\s+[A-Za-z0-9._~+\/-]+=*/g, "Bearer <REDACTED:bearer>");
}
