/**
 * Attachments of an inbound message, the stage after normalisation: which
 * resources to fetch ({@link buildDescriptors}), what to call them on disk
 * ({@link safeFileName}), and fetching them into the message's folder
 * ({@link downloadAttachments}), which also yields the legacy `media` summary.
 * @module
 */

export { buildDescriptors, type ResourceRef } from "./descriptors.ts";
export { attachmentsDir, downloadAttachments, errorText } from "./download.ts";
