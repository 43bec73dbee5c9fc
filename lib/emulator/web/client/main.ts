/// <reference lib="dom" />
/**
 * The web chat page: pick a user and a chat, read the chat live (the SSE
 * change stream triggers a refetch; unchanged entries keep their DOM), send
 * text, images and files, reply and reply in threads, react, and use cards
 * (buttons, forms, menus and inputs send a real `card.action.trigger` to the
 * bot; its toast shows and a replacement card re-renders; see `cards.ts`),
 * approve or deny an app registration as the chosen user (`registrations.ts`),
 * recall one's own messages, and remove or add the bot and dissolve a group
 * from the chat header (`chat_controls.ts`).
 * Bundled into `_app_bundle.js` by `build.ts`.
 * @module
 */

import {
  chatLabel,
  chatsOf,
  contextFor,
  layoutTimeline,
  messagePreview,
  type PageMessage,
  type PageState,
  renderEntry,
} from "../render/mod.ts";
import { fetchMessages, fetchState, react, recallMessage } from "./api.ts";
import { type CardPage, onCardButton, setupCardFields } from "./cards.ts";
import { renderChatControls, setupChatControls } from "./chat_controls.ts";
import { setupComposer } from "./composer.ts";
import { byId } from "./dom.ts";
import { renderRegistrations, setupRegistrations } from "./registrations.ts";
import { renderSidebar } from "./sidebar.ts";
import { patchTimeline, resetTimeline } from "./timeline_view.ts";
import { showToast } from "./toast.ts";

interface View {
  state?: PageState;
  viewer: string;
  chatId: string;
  messages: PageMessage[];
  replyTo?: { id: string; inThread: boolean };
  scrollToEnd: boolean;
}

const view: View = { viewer: "", chatId: "", messages: [], scrollToEnd: true };
const timeline = byId("timeline");

function formatTime(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function currentChat() {
  return view.state?.chats.find((c) => c.chat_id === view.chatId);
}

function currentMode(): string {
  return currentChat()?.chat_mode ?? "p2p";
}

function saveHash(): void {
  const q = new URLSearchParams({ user: view.viewer, chat: view.chatId });
  history.replaceState(null, "", `#${q}`);
}

function renderHeader(): void {
  const state = view.state;
  const chat = state?.chats.find((c) => c.chat_id === view.chatId);
  const mode = chat?.chat_mode ?? "p2p";
  if (state && chat) {
    const { name, sub } = chatLabel(chat, state);
    byId("chat-title").textContent = name;
    byId("chat-sub").textContent = sub;
  }
  // No @bot in a DM, nor where the bot is not a member (Feishu offers no such mention).
  byId("mention-toggle").hidden = mode === "p2p" || !chat?.bot_member;
  byId("mention-name").textContent = `@${state?.app.bot_name ?? "bot"}`;
  renderChatControls(chat, state, view.viewer);
  byId<HTMLTextAreaElement>("composer-input").placeholder = chat?.dissolved
    ? "This group was dissolved"
    : mode === "topic"
    ? "Start a new topic…"
    : `Message ${chat && state ? chatLabel(chat, state).name : ""}…`;
}

function renderReplyBar(): void {
  const bar = byId("reply-bar");
  const target = view.messages.find((m) => m.message_id === view.replyTo?.id);
  bar.hidden = !target;
  if (!target) return;
  const preview = messagePreview(target, contextFor(view.state, target.mentions));
  const how = view.replyTo?.inThread || currentMode() === "topic"
    ? "Replying in thread to"
    : "Replying to";
  byId("reply-text").textContent = `${how} ${target.sender.name}: ${preview}`;
}

function renderTimeline(): void {
  const byIdMap = new Map(view.messages.map((m) => [m.message_id, m]));
  const options = {
    state: view.state,
    viewer: view.viewer,
    byId: byIdMap,
    formatTime,
    mode: currentMode(),
    readOnly: currentChat()?.dissolved === true,
  };
  const entries = layoutTimeline(view.messages, options.mode).map((e): [string, string] => [
    e.message.message_id,
    renderEntry(e, options),
  ]);
  patchTimeline(timeline, entries, {
    forceBottom: view.scrollToEnd,
    empty: `No messages yet. Say hi to ${view.state?.app.bot_name ?? "the bot"}.`,
  });
  view.scrollToEnd = false;
}

let loading: Promise<void> | undefined;
let again = false;

/** Refetches state and the open chat; calls made meanwhile coalesce into one more run. */
function refresh(): Promise<void> {
  if (loading) {
    again = true;
    return loading;
  }
  loading = (async () => {
    do {
      again = false;
      try {
        await load();
      } catch (e) {
        byId("composer-error").textContent = `Refresh failed: ${
          e instanceof Error ? e.message : String(e)
        }`;
      }
    } while (again);
    loading = undefined;
  })();
  return loading;
}

async function load(): Promise<void> {
  const state = await fetchState();
  view.state = state;
  if (!state.users.some((u) => u.open_id === view.viewer)) {
    view.viewer = state.users[0]?.open_id ?? "";
  }
  const chats = chatsOf(state, view.viewer);
  if (!chats.some((c) => c.chat_id === view.chatId)) {
    view.chatId = chats[0]?.chat_id ?? "";
    view.scrollToEnd = true;
    resetTimeline();
  }
  renderSidebar(state, {
    viewer: view.viewer,
    chatId: view.chatId,
    select: byId<HTMLSelectElement>("user-select"),
    list: byId("chat-list"),
  });
  renderHeader();
  await showRegistrations();
  view.messages = view.chatId ? await fetchMessages(view.chatId) : [];
  renderTimeline();
  renderReplyBar();
  saveHash();
  document.body.dataset.ready = "true";
}

function showRegistrations(): Promise<void> {
  const name = view.state?.users.find((u) => u.open_id === view.viewer)?.name ?? "";
  return renderRegistrations(byId("registrations"), name);
}

function openChat(chatId: string): void {
  if (chatId === view.chatId) return;
  view.chatId = chatId;
  view.replyTo = undefined;
  view.scrollToEnd = true;
  resetTimeline();
  void refresh();
}

async function onAction(button: HTMLButtonElement, messageId: string): Promise<void> {
  const act = button.dataset.act;
  if (act === "reply" || act === "thread") {
    view.replyTo = { id: messageId, inThread: act === "thread" };
    renderReplyBar();
    byId("composer-input").focus();
    return;
  }
  if (act === "recall") {
    try {
      await recallMessage({ user_id: view.viewer, message_id: messageId });
    } catch (e) {
      showToast({ type: "error", content: e instanceof Error ? e.message : String(e) });
    }
    return;
  }
  if (act === "react") {
    const emoji = button.dataset.emoji ?? "";
    const msg = view.messages.find((m) => m.message_id === messageId);
    const mine = msg?.reactions.some((r) =>
      r.emoji_type === emoji && r.operator_id === view.viewer
    );
    try {
      await react({
        user_id: view.viewer,
        message_id: messageId,
        emoji_type: emoji,
        remove: !!mine,
      });
    } catch (e) {
      showToast({ type: "error", content: e instanceof Error ? e.message : String(e) });
    }
  }
}

const cardPage: CardPage = { viewer: () => view.viewer, refresh };

timeline.addEventListener("click", (e) => {
  const button = (e.target as Element).closest("button");
  if (!button) return;
  const owner = button.dataset.messageId ??
    button.closest<HTMLElement>("[data-message-id]")?.dataset.messageId;
  if (!owner) return;
  if (button.classList.contains("card-btn")) void onCardButton(cardPage, button);
  else if (button.dataset.act) void onAction(button, owner);
});
setupCardFields(timeline, cardPage);
setupRegistrations(byId("registrations"), () => view.viewer);
setupChatControls({ viewer: () => view.viewer, chat: currentChat });

byId("chat-list").addEventListener("click", (e) => {
  const item = (e.target as Element).closest<HTMLElement>("[data-chat-id]");
  if (item?.dataset.chatId) openChat(item.dataset.chatId);
});

byId<HTMLSelectElement>("user-select").addEventListener("change", (e) => {
  view.viewer = (e.target as HTMLSelectElement).value;
  view.replyTo = undefined;
  void refresh();
});

byId("reply-cancel").addEventListener("click", () => {
  view.replyTo = undefined;
  renderReplyBar();
});

setupComposer(() => {
  if (!view.chatId || !view.state) return undefined;
  return {
    viewer: view.viewer,
    chatId: view.chatId,
    mode: currentMode(),
    botName: view.state.app.bot_name,
    botMember: currentChat()?.bot_member === true,
    replyTo: view.replyTo,
  };
}, () => {
  view.replyTo = undefined;
  view.scrollToEnd = true;
  void refresh();
});

function connect(): void {
  const live = byId("live");
  const source = new EventSource("/__emu/api/stream");
  source.addEventListener("open", () => {
    live.className = "live on";
    live.title = "Live";
    void refresh();
  });
  source.addEventListener("error", () => {
    live.className = "live off";
    live.title = "Reconnecting…";
  });
  source.addEventListener("change", (e) => {
    const change = JSON.parse((e as MessageEvent).data) as { kind: string; chat_id?: string };
    if (change.kind === "chat.updated" || change.chat_id === view.chatId) void refresh();
    else if (change.kind === "registration.changed") void showRegistrations();
  });
}

const initial = new URLSearchParams(location.hash.slice(1));
view.viewer = initial.get("user") ?? "";
view.chatId = initial.get("chat") ?? "";
connect();
void refresh();
