/**
 * Embedded files of the emulator's web chat page, served at `/` (the
 * `index.html` entry) and `/web/<name>`: the page, its stylesheet (the
 * `styles/*.css` files joined) and its
 * script (`_app_bundle.js`, built by `build.ts` from `client/` and
 * `render/`). All are imported as text, so `deno compile` and bundles carry
 * them; nothing is read from disk at run time.
 * @module
 */

import APP_JS from "./_app_bundle.js" with { type: "text" };
import PAGE_HTML from "./page.html" with { type: "text" };
import CARD_CSS from "./styles/card.css" with { type: "text" };
import LAYOUT_CSS from "./styles/layout.css" with { type: "text" };
import MESSAGES_CSS from "./styles/messages.css" with { type: "text" };
import RICH_CSS from "./styles/rich.css" with { type: "text" };

/** One embedded file: its content type and text body. */
export interface WebAsset {
  type: string;
  body: string;
}

/** Files by name; `index.html` is served at `/`. */
export const WEB_ASSETS: Record<string, WebAsset> = {
  "index.html": { type: "text/html; charset=utf-8", body: PAGE_HTML },
  "style.css": {
    type: "text/css; charset=utf-8",
    body: [LAYOUT_CSS, MESSAGES_CSS, RICH_CSS, CARD_CSS].join("\n"),
  },
  "app.js": { type: "text/javascript; charset=utf-8", body: APP_JS },
};
