/// <reference lib="dom" />
/**
 * Tiny DOM helpers for the page script.
 * @module
 */

/** The element with this id; throws when the page lacks it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`Expected an element #${id} but found none`);
  return el as T;
}

/** Builds one element from HTML the renderers produced (already escaped). */
export function fromHtml(html: string): Element {
  const t = document.createElement("template");
  t.innerHTML = html;
  const el = t.content.firstElementChild;
  if (!el) throw new Error(`Expected HTML with an element but found ${html.slice(0, 40)}`);
  return el;
}

/** Reads a File as base64 (without the data-URL prefix). */
export function fileBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error);
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.readAsDataURL(file);
  });
}
