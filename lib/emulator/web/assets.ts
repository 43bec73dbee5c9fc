/**
 * Embedded files of the emulator's web chat page, served at `/` (the
 * `index.html` entry) and `/web/<name>`. This is a placeholder; the page
 * replaces this module's content and keeps its shape.
 * @module
 */

/** One embedded file: its content type and text body. */
export interface WebAsset {
  type: string;
  body: string;
}

/** Files by name; `index.html` is served at `/`. */
export const WEB_ASSETS: Record<string, WebAsset> = {
  "index.html": {
    type: "text/html; charset=utf-8",
    body: `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Feishu emulator</title></head>
<body>
<h1>Feishu emulator</h1>
<p>The web chat page is not built yet. The control plane is live:
<a href="/__emu/api/state">/__emu/api/state</a>.</p>
</body>
</html>
`,
  },
};
