/**
 * Embedded files of the emulator's web chat page, served at `/` (the
 * `index.html` entry) and `/web/<name>`: the page, its stylesheet and its
 * script (`_app_bundle.js`, built by `build.ts` from `client/` and
 * `render/`). All are imported as text, so `deno compile` and bundles carry
 * them; nothing is read from disk at run time.
 * @module
 */

import APP_JS from "./_app_bundle.js" with { type: "text" };
import PAGE_HTML from "./page.html" with { type: "text" };
import STYLE_CSS from "./style.css" with { type: "text" };

/** One embedded file: its content type and text body. */
export interface WebAsset {
  type: string;
  body: string;
}

/** Files by name; `index.html` is served at `/`. */
export const WEB_ASSETS: Record<string, WebAsset> = {
  "index.html": { type: "text/html; charset=utf-8", body: PAGE_HTML },
  "style.css": { type: "text/css; charset=utf-8", body: STYLE_CSS },
  "app.js": { type: "text/javascript; charset=utf-8", body: APP_JS },
};
