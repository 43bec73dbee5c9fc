/**
 * The file-like families: `image`, `file`, `audio`, `media` (video),
 * `sticker` and `folder`. Each renders one tag and reports its resource.
 * @module
 */

import { asNumber, asObject, asText } from "../_json.ts";
import { attr, durationText, optionalAttr } from "../_format.ts";
import type { Conversion } from "../types.ts";

/**
 * `image`: `![image](<image_key>)`, or `[image]` without a key.
 *
 * @example
 * ```ts
 * import { convertImage } from "./media.ts";
 * import assert from "node:assert/strict";
 * const c = convertImage({ image_key: "img_1" });
 * assert.equal(c.text, "![image](img_1)");
 * assert.deepEqual(c.resources, [{ type: "image", file_key: "img_1" }]);
 * ```
 */
export function convertImage(content: unknown): Conversion {
  const key = asText(asObject(content)?.image_key);
  return key
    ? {
      content: { kind: "image", image_key: key },
      text: `![image](${key})`,
      resources: [{ type: "image", file_key: key }],
    }
    : { content: { kind: "image" }, text: "[image]", resources: [] };
}

/**
 * `file`: `<file key="K" name="N"/>`.
 *
 * @example
 * ```ts
 * import { convertFile } from "./media.ts";
 * import assert from "node:assert/strict";
 * assert.equal(convertFile({ file_key: "f1", file_name: "a.pdf" }).text, '<file key="f1" name="a.pdf"/>');
 * ```
 */
export function convertFile(content: unknown): Conversion {
  const c = asObject(content);
  const key = asText(c?.file_key);
  const name = asText(c?.file_name);
  if (!key) {
    return {
      content: { kind: "file", ...(name ? { file_name: name } : {}) },
      text: "[file]",
      resources: [],
    };
  }
  return {
    content: { kind: "file", file_key: key, ...(name ? { file_name: name } : {}) },
    text: `<file key="${attr(key)}"${optionalAttr("name", name)}/>`,
    resources: [{ type: "file", file_key: key, ...(name ? { file_name: name } : {}) }],
  };
}

/**
 * `audio`: `<audio key="K" duration="1.5s"/>`.
 *
 * @example
 * ```ts
 * import { convertAudio } from "./media.ts";
 * import assert from "node:assert/strict";
 * assert.equal(convertAudio({ file_key: "a1", duration: 1000 }).text, '<audio key="a1" duration="1s"/>');
 * ```
 */
export function convertAudio(content: unknown): Conversion {
  const c = asObject(content);
  const key = asText(c?.file_key);
  const ms = asNumber(c?.duration_ms) ?? asNumber(c?.duration);
  const extra = ms !== undefined ? { duration_ms: ms } : {};
  if (!key) return { content: { kind: "audio", ...extra }, text: "[audio]", resources: [] };
  return {
    content: { kind: "audio", file_key: key, ...extra },
    text: `<audio key="${attr(key)}"${
      optionalAttr("duration", ms !== undefined ? durationText(ms) : undefined)
    }/>`,
    resources: [{ type: "audio", file_key: key, ...extra }],
  };
}

/**
 * `media` (a video with a cover image): `<video key="K" name="N" duration="30s"/>`.
 *
 * @example
 * ```ts
 * import { convertVideo } from "./media.ts";
 * import assert from "node:assert/strict";
 * const c = convertVideo({ file_key: "v1", image_key: "i1", file_name: "c.mp4", duration: 30000 });
 * assert.equal(c.text, '<video key="v1" name="c.mp4" duration="30s"/>');
 * assert.equal(c.resources[0]?.cover_image_key, "i1");
 * ```
 */
export function convertVideo(content: unknown): Conversion {
  const c = asObject(content);
  const key = asText(c?.file_key);
  const cover = asText(c?.image_key);
  const name = asText(c?.file_name);
  const ms = asNumber(c?.duration_ms) ?? asNumber(c?.duration);
  const fields = {
    ...(key ? { file_key: key } : {}),
    ...(cover ? { image_key: cover } : {}),
    ...(ms !== undefined ? { duration_ms: ms } : {}),
    ...(name ? { file_name: name } : {}),
  };
  if (!key) return { content: { kind: "media", ...fields }, text: "[video]", resources: [] };
  const duration = ms !== undefined ? durationText(ms) : undefined;
  return {
    content: { kind: "media", ...fields },
    text: `<video key="${attr(key)}"${optionalAttr("name", name)}${
      optionalAttr("duration", duration)
    }/>`,
    resources: [{
      type: "video",
      file_key: key,
      ...(name ? { file_name: name } : {}),
      ...(ms !== undefined ? { duration_ms: ms } : {}),
      ...(cover ? { cover_image_key: cover } : {}),
    }],
  };
}

/**
 * `sticker`: `<sticker key="K"/>`.
 *
 * @example
 * ```ts
 * import { convertSticker } from "./media.ts";
 * if (convertSticker({ file_key: "s1" }).text !== '<sticker key="s1"/>') throw new Error();
 * ```
 */
export function convertSticker(content: unknown): Conversion {
  const key = asText(asObject(content)?.file_key);
  return key
    ? {
      content: { kind: "sticker", file_key: key },
      text: `<sticker key="${attr(key)}"/>`,
      resources: [{ type: "sticker", file_key: key }],
    }
    : { content: { kind: "sticker" }, text: "[sticker]", resources: [] };
}

/**
 * `folder`: `<folder key="K" name="N"/>`, or `[folder]`; not downloadable.
 *
 * @example
 * ```ts
 * import { convertFolder } from "./media.ts";
 * if (convertFolder({}).text !== "[folder]") throw new Error();
 * ```
 */
export function convertFolder(content: unknown): Conversion {
  const c = asObject(content);
  const key = asText(c?.file_key);
  const name = asText(c?.file_name);
  const size = asNumber(c?.file_size);
  return {
    content: {
      kind: "folder",
      ...(key ? { file_key: key } : {}),
      ...(name ? { file_name: name } : {}),
      ...(size !== undefined ? { file_size: size } : {}),
    },
    text: key ? `<folder key="${attr(key)}"${optionalAttr("name", name)}/>` : "[folder]",
    resources: [],
  };
}
