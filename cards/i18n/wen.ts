/**
 * Classical Chinese control-card texts.
 * @module
 */

import type { Messages } from "./keys.ts";

/** The classical Chinese table. */
export const WEN: Messages = {
  text: {
    help: "总览",
    status: "态势",
    kanban: "全局",
    system: "系统诸篇",
    brief: "要旨",
    refresh: "更始",
    sleep: "休止",
    clear: "涤除前言",
    taskcard: "任务之牒",
    available: "可行之令",
    operations: "机心之制",
    back: "返",
    all: "尽览七层",
    unavailable: "机况未可得也。",
    not_found: "未见要旨。",
    no_system: "系统无篇可览。",
    choose_system: "择一篇而观",
    truncated: "篇幅所限，文有所略。",
    usage: "法：`/taskcard on`、`/taskcard off`，或 `/taskcard N`（一至十）。",
    update_failed: "任务之牒未能更定。",
    taskcard_on: "任务之牒已显。",
    taskcard_off: "任务之牒已隐。",
    rows: "常列",
    pending: "更始之令已在候。",
    refresh_sent: "更始之令已下，机将复起。",
    sleep_sent: "休止之令已下；复有来言，则机自醒。",
    clear_sent: "涤除前言之令已下。",
    signal_failed: "制令未成。",
    identity: "名实",
    model: "模型",
    runtime: "行止",
    mind: "心识",
    tokens: "符数",
    network: "诸机",
    addons: "辅具",
  },
  describe: {
    help: "陈列诸令",
    kanban: "览机之全局",
    taskcard: "显隐任务之牒",
    refresh: "使机更始",
    sleep: "使机休止",
    clear: "涤除前言",
    status: "察机之态",
    system: "览系统诸篇",
    brief: "观其要旨",
  },
};
