/**
 * The registration link as a QR code drawn with Unicode half blocks, to scan
 * from the terminal with the Feishu (Lark) app.
 * @module
 */

import QRCode from "qrcode";

/** The QR code of `url` as lines of text (dark on light; two modules per character row). */
export async function qrLines(url: string): Promise<string> {
  // Low error correction keeps the code small enough for an 80-column terminal.
  return await QRCode.toString(url, { type: "utf8", errorCorrectionLevel: "L", margin: 2 });
}
