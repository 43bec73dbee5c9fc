import { deepEqual, equal, notEqual, rejects } from "node:assert/strict";
import { join } from "node:path";
import { BridgeError } from "../core/mod.ts";
import { type NormaliseOptions, normaliseOutbound, type OutboundInput } from "./content.ts";
import type { CardBody, EditableContent } from "../mcp/family/mod.ts";
import { denoMediaFs, type MediaFs } from "./media_fs.ts";

const SRC = { type: "key", key: "img_k" } as const;

// The shape of `text` / `content` (required keys, types, closed objects, the
// editable subset) is the tool's zod schema's to refuse; validate_test.ts
// holds those cases. These are the rules only normalisation knows.
const rejections: { name: string; input: OutboundInput; error: string }[] = [
  { name: "empty text", input: { text: "" }, error: "text is required" },
  {
    name: "a URL given as a path",
    input: { content: { type: "image", source: { type: "path", path: "https://x/a.png" } } },
    error: "content.source does not support URLs",
  },
  {
    name: "a URL given as a key",
    input: { content: { type: "video", source: { type: "key", key: "HTTP://x/a.mp4" } } },
    error: "content.source does not support URLs",
  },
  {
    name: "a relative path",
    input: { content: { type: "image", source: { type: "path", path: "a.png" } } },
    error: "content.source.path must be absolute",
  },
  {
    name: "a card whose button cannot act, naming its path",
    input: {
      content: {
        type: "card",
        card: {
          schema: "2.0",
          body: {
            elements: [{
              tag: "column_set",
              columns: [{ tag: "column", elements: [{ tag: "button", text: { content: "Go" } }] }],
            }],
          },
        },
      },
    },
    error: "Expected every interactive element of the card to act when used but found a button " +
      "at content.card.body.elements[0].columns[0].elements[0] that cannot; add behaviors: " +
      '[{type: "callback", value: {...}}] (or behaviors: [{type: "open_url", default_url: ' +
      '"https://..."}] for a link) or a value',
  },
];

/** A filesystem that fails the test if touched: key sources and errors must not reach it. */
const untouchable: MediaFs = {
  realPath: (p) => Promise.reject(new Error(`unexpected realPath(${p})`)),
  stat: (p) => Promise.reject(new Error(`unexpected stat(${p})`)),
  open: (p) => Promise.reject(new Error(`unexpected open(${p})`)),
};

for (const r of rejections) {
  Deno.test(`normaliseOutbound() rejects ${r.name}`, async () => {
    const options: NormaliseOptions = { mediaRoots: ["/"], fs: untouchable };
    await rejects(normaliseOutbound(r.input, options), (err: unknown) => {
      equal(err instanceof BridgeError && err.code, "INVALID_ARGUMENT");
      equal((err as Error).message, r.error);
      return true;
    });
  });
}

const successes: { name: string; input: OutboundInput; want: unknown }[] = [
  {
    name: "legacy text into a text record",
    input: { text: "hi" },
    want: {
      type: "text",
      recordContent: { type: "text", text: "hi" },
      previewText: "hi",
      messageType: "text",
    },
  },
  {
    name: "markdown into a post with the raw markdown as preview",
    input: { content: { type: "markdown", markdown: "**b**" } },
    want: {
      type: "markdown",
      recordContent: { type: "markdown", markdown: "**b**" },
      previewText: "**b**",
      messageType: "post",
    },
  },
  {
    name: "a post AST as given, previewed",
    input: {
      content: {
        type: "post",
        post: { zh_cn: { title: "T", content: [[{ tag: "text", text: "x" }]] } },
      },
    },
    want: {
      type: "post",
      recordContent: {
        type: "post",
        post: { zh_cn: { title: "T", content: [[{ tag: "text", text: "x" }]] } },
      },
      previewText: "T\nx",
      messageType: "post",
    },
  },
  {
    name: "a schema 2.0 card into an interactive record",
    input: {
      content: {
        type: "card",
        card: { schema: "2.0", body: { elements: [{ tag: "markdown", content: "c" }] } },
      },
    },
    want: {
      type: "card",
      recordContent: {
        type: "card",
        card: { schema: "2.0", body: { elements: [{ tag: "markdown", content: "c" }] } },
      },
      previewText: "c",
      messageType: "interactive",
    },
  },
  {
    name: "a file key with file_name, keeping the key verbatim",
    input: {
      content: {
        type: "file",
        source: { type: "key", key: "file_provider" },
        file_name: "report.pdf",
      },
    },
    want: {
      type: "file",
      recordContent: {
        type: "file",
        source: { type: "key", key: "file_provider" },
        file_name: "report.pdf",
      },
      previewText: "[file: report.pdf]",
      messageType: "file",
      media: { type: "file", source: { type: "key", key: "file_provider" } },
      mediaSummary: { type: "file", filename: "report.pdf" },
    },
  },
  {
    name: "a key that looks like an absolute path as a key, never a path",
    input: { content: { type: "audio", source: { type: "key", key: "/etc/passwd" } } },
    want: {
      type: "audio",
      recordContent: { type: "audio", source: { type: "key", key: "/etc/passwd" } },
      previewText: "[audio]",
      messageType: "audio",
      media: { type: "audio", source: { type: "key", key: "/etc/passwd" } },
      mediaSummary: { type: "audio" },
    },
  },
  {
    name: "a captioned video key into a post",
    input: {
      content: {
        type: "video",
        source: { type: "key", key: "file_video" },
        caption: "video caption",
      },
    },
    want: {
      type: "video",
      recordContent: {
        type: "video",
        source: { type: "key", key: "file_video" },
        caption: "video caption",
      },
      previewText: "video caption",
      messageType: "post",
      media: {
        type: "video",
        source: { type: "key", key: "file_video" },
        caption: "video caption",
      },
      mediaSummary: { type: "video" },
    },
  },
  {
    name: "an image with a blank caption as a plain image",
    input: { content: { type: "image", source: SRC, caption: "  " } },
    want: {
      type: "image",
      recordContent: { type: "image", source: SRC, caption: "  " },
      previewText: "[image]",
      messageType: "image",
      media: { type: "image", source: SRC },
      mediaSummary: { type: "image" },
    },
  },
  {
    name: "share_chat",
    input: { content: { type: "share_chat", chat_id: "oc_shared" } },
    want: {
      type: "share_chat",
      recordContent: { type: "share_chat", chat_id: "oc_shared" },
      previewText: "[shared chat]",
      messageType: "share_chat",
    },
  },
  {
    name: "share_user",
    input: { content: { type: "share_user", user_id: "ou_shared" } },
    want: {
      type: "share_user",
      recordContent: { type: "share_user", user_id: "ou_shared" },
      previewText: "[shared user]",
      messageType: "share_user",
    },
  },
  {
    name: "a sticker with a sticker media summary",
    input: { content: { type: "sticker", file_key: "st_provider" } },
    want: {
      type: "sticker",
      recordContent: { type: "sticker", file_key: "st_provider" },
      previewText: "[sticker]",
      messageType: "sticker",
      mediaSummary: { type: "sticker" },
    },
  },
];

for (const s of successes) {
  Deno.test(`normaliseOutbound() normalises ${s.name}`, async () => {
    deepEqual(await normaliseOutbound(s.input, { mediaRoots: ["/"], fs: untouchable }), s.want);
  });
}

Deno.test("normaliseOutbound() copies the content so later changes to the input do not leak", async () => {
  const card: CardBody = { schema: "2.0", body: { elements: [] as unknown[] } };
  const n = await normaliseOutbound({ content: { type: "card", card } });
  (card.body as { elements: unknown[] }).elements.push("changed");
  notEqual(n.recordContent.card, card);
  deepEqual(n.recordContent, { type: "card", card: { schema: "2.0", body: { elements: [] } } });
});

Deno.test("normaliseOutbound() accepts text, markdown, post and card in edit mode", async () => {
  const editable: EditableContent[] = [
    { type: "text", text: "a" },
    { type: "markdown", markdown: "a" },
    { type: "post", post: { zh_cn: { title: "t" } } },
    { type: "card", card: { schema: "2.0", body: {} } },
  ];
  for (const content of editable) {
    equal((await normaliseOutbound({ content })).type, content.type);
  }
});

async function withMediaDir(fn: (dir: string, outside: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const outside = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(join(dir, "root"));
    await Deno.mkdir(join(dir, "root", "..hidden"));
    await Deno.writeTextFile(join(dir, "root", "a.png"), "png!");
    await Deno.writeTextFile(join(dir, "root", "..hidden", "b.txt"), "b");
    await Deno.writeTextFile(join(outside, "secret.txt"), "secret");
    await Deno.symlink(join(outside, "secret.txt"), join(dir, "root", "escape.txt"));
    await Deno.symlink(join(dir, "root", "a.png"), join(outside, "link.png"));
    await Deno.symlink(join(dir, "root"), join(dir, "root-link"));
    await fn(dir, outside);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
}

function image(path: string, extra: { caption?: string } = {}): OutboundInput {
  return { content: { type: "image", source: { type: "path", path }, ...extra } };
}

Deno.test("normaliseOutbound() plans the upload of a path inside media_roots", async () => {
  await withMediaDir(async (dir) => {
    const path = join(dir, "root", "a.png");
    const n = await normaliseOutbound(image(path, { caption: "**caption**" }), {
      mediaRoots: [join(dir, "root")],
      fs: denoMediaFs,
    });
    deepEqual(n, {
      type: "image",
      recordContent: { type: "image", source: { type: "path", path }, caption: "**caption**" },
      previewText: "**caption**",
      messageType: "post",
      media: {
        type: "image",
        source: { type: "path", path },
        caption: "**caption**",
        upload: {
          path,
          bytes: new TextEncoder().encode("png!"),
          fileName: "a.png",
          fileType: "image",
        },
      },
      mediaSummary: { type: "image", filename: "a.png", size: 4 },
    });
  });
});

Deno.test("normaliseOutbound() names a file upload after file_name", async () => {
  await withMediaDir(async (dir) => {
    const path = join(dir, "root", "a.png");
    const n = await normaliseOutbound(
      { content: { type: "file", source: { type: "path", path }, file_name: "report.png" } },
      { mediaRoots: [join(dir, "root")], fs: denoMediaFs },
    );
    deepEqual(n.media?.upload, {
      path,
      bytes: new TextEncoder().encode("png!"),
      fileName: "report.png",
      fileType: "stream",
    });
    deepEqual(n.mediaSummary, { type: "file", filename: "report.png", size: 4 });
    equal(n.previewText, "[file: report.png]");
  });
});

Deno.test("normaliseOutbound() resolves symlinks before checking media_roots", async (t) => {
  await withMediaDir(async (dir, outside) => {
    const options = { mediaRoots: [join(dir, "root")], fs: denoMediaFs };
    await t.step("a link inside the root that points outside is refused", async () => {
      await rejects(
        normaliseOutbound(image(join(dir, "root", "escape.txt")), options),
        new RegExp(
          `^BridgeError: Expected content.source.path to be inside media_roots .* but found ${outside}/secret.txt$`,
        ),
      );
    });
    await t.step(
      "a link outside the root that points inside is read from its real path, named as given",
      async () => {
        const n = await normaliseOutbound(image(join(outside, "link.png")), options);
        equal(n.media?.upload?.path, join(dir, "root", "a.png"));
        equal(n.media?.upload?.fileName, "link.png");
      },
    );
    await t.step("a root given through a link still admits its files", async () => {
      const n = await normaliseOutbound(image(join(dir, "root", "a.png")), {
        mediaRoots: [join(dir, "root-link")],
        fs: denoMediaFs,
      });
      equal(n.media?.upload?.path, join(dir, "root", "a.png"));
    });
    await t.step("a folder whose name starts with two dots is inside the root", async () => {
      const n = await normaliseOutbound(image(join(dir, "root", "..hidden", "b.txt")), options);
      equal(n.mediaSummary?.size, 1);
    });
    await t.step("a path escaping with .. is refused", async () => {
      await rejects(
        normaliseOutbound(image(join(dir, "root", "..", "root-link", "..", "..", "x")), options),
        /must name a readable file|inside media_roots/,
      );
    });
  });
});

Deno.test("normaliseOutbound() refuses missing files, folders and unreadable files", async () => {
  await withMediaDir(async (dir) => {
    const options = { mediaRoots: [dir], fs: denoMediaFs };
    for (const path of [join(dir, "root", "missing.png"), join(dir, "root")]) {
      await rejects(normaliseOutbound(image(path), options), {
        message: "content.source.path must name a readable file",
      });
    }
    const unreadable: MediaFs = {
      ...denoMediaFs,
      open: () => Promise.reject(new Deno.errors.PermissionDenied("denied")),
    };
    await rejects(
      normaliseOutbound(image(join(dir, "root", "a.png")), { mediaRoots: [dir], fs: unreadable }),
      { message: "content.source.path must name a readable file" },
    );
  });
});

Deno.test("normaliseOutbound() refuses every path when no media root exists", async () => {
  await withMediaDir(async (dir) => {
    await rejects(
      normaliseOutbound(image(join(dir, "root", "a.png")), {
        mediaRoots: [join(dir, "nope")],
        fs: denoMediaFs,
      }),
      /Expected content.source.path to be inside media_roots/,
    );
  });
});

Deno.test("normaliseOutbound() reports a path Deno's permissions deny as outside media_roots", async () => {
  const denied: MediaFs = {
    realPath: (p) =>
      p === "/w"
        ? Promise.resolve(p)
        : Promise.reject(new Deno.errors.NotCapable(`Requires read access to "${p}"`)),
    stat: () => Promise.reject(new Error("unexpected stat")),
    open: () => Promise.reject(new Error("unexpected open")),
  };
  await rejects(
    normaliseOutbound(image("/elsewhere/a.png"), { mediaRoots: ["/w"], fs: denied }),
    {
      message:
        "Expected content.source.path to be inside media_roots (/w) but found /elsewhere/a.png",
    },
  );
});
