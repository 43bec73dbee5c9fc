import assert from "node:assert/strict";
import type { ApiCategory } from "../core/mod.ts";
import { apiCategory } from "./category.ts";

const H = "https://open.feishu.cn";
const M = `${H}/open-apis/im/v1/messages`;

const cases: [name: string, method: string, url: string, body: unknown, want: ApiCategory][] = [
  ["a text send", "POST", `${M}?receive_id_type=chat_id`, { msg_type: "text" }, "send"],
  ["a post send", "post", M, { msg_type: "post" }, "send"],
  ["an image send", "POST", M, { msg_type: "image" }, "send"],
  ["a card send", "POST", M, { msg_type: "interactive" }, "card"],
  ["a card send with a JSON string body", "POST", M, '{"msg_type":"interactive"}', "card"],
  ["a text reply", "POST", `${M}/om_1/reply`, { msg_type: "text" }, "send"],
  ["a card reply", "POST", `${M}/om_1/reply`, { msg_type: "interactive" }, "card"],
  ["a send without a body", "POST", M, undefined, "send"],
  ["a card patch", "PATCH", `${M}/om_1`, { content: "{}" }, "card"],
  ["a delayed card update", "POST", `${H}/open-apis/interactive/v1/card/update`, {}, "card"],
  ["a message edit", "PUT", `${M}/om_1`, { msg_type: "text" }, "edit"],
  ["a recall", "DELETE", `${M}/om_1`, undefined, "edit"],
  ["a reaction add", "POST", `${M}/om_1/reactions`, {}, "reaction"],
  ["a reaction list", "GET", `${M}/om_1/reactions?reaction_type=OK`, undefined, "reaction"],
  ["a reaction removal", "DELETE", `${M}/om_1/reactions/r_1`, undefined, "reaction"],
  ["a resource download", "GET", `${M}/om_1/resources/file_1?type=file`, undefined, "download"],
  ["an image read back", "GET", `${H}/open-apis/im/v1/images/img_1`, undefined, "download"],
  ["an image upload", "POST", `${H}/open-apis/im/v1/images`, undefined, "upload"],
  ["a file upload", "POST", `${H}/open-apis/im/v1/files`, undefined, "upload"],
  [
    "a tenant token",
    "POST",
    `${H}/open-apis/auth/v3/tenant_access_token/internal`,
    { app_id: "cli_x" },
    "probe",
  ],
  ["the ws endpoint", "POST", `${H}/callback/ws/endpoint`, { AppID: "cli_x" }, "probe"],
  ["bot info (relative URL)", "GET", "/open-apis/bot/v3/info", undefined, "probe"],
  ["app info", "GET", `${H}/open-apis/application/v6/applications/cli_x`, undefined, "probe"],
  ["user info", "GET", `${H}/open-apis/contact/v3/users/ou_1`, undefined, "probe"],
  ["chat info", "GET", `${H}/open-apis/im/v1/chats/oc_1`, undefined, "probe"],
  ["history", "GET", `${M}?container_id_type=chat&container_id=oc_1`, undefined, "probe"],
  ["one message", "GET", `${M}/om_1`, undefined, "probe"],
  ["the scopes", "GET", `${H}/open-apis/application/v6/scopes`, undefined, "probe"],
  ["a garbled URL", "GET", "::", undefined, "probe"],
];

for (const [name, method, url, body, want] of cases) {
  Deno.test(`apiCategory() counts ${name} as ${want}`, () => {
    assert.equal(apiCategory(method, url, body), want);
  });
}
