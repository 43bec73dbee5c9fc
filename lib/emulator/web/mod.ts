/**
 * The emulator's web chat page: a single page (plain HTML, CSS and one
 * bundled script, embedded as text) where a newcomer picks a user and a
 * chat, talks to the bot and sees its answers drawn the way Feishu draws
 * them. `WEB_ASSETS` is what the control plane serves at `/` and
 * `/web/<name>`; the renderers (markdown, post, cards, message tiles) are
 * pure and exported for tests. `build.ts` rebuilds the page script after a
 * change in `client/` or `render/`.
 * @module
 */

export { WEB_ASSETS } from "./assets.ts";
