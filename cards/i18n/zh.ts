/**
 * Chinese (modern) control-card texts.
 * @module
 */

import type { Messages } from "./keys.ts";

/** The Chinese table. */
export const ZH: Messages = {
  text: {
    help: "控制中心",
    status: "状态",
    kanban: "看板",
    system: "系统文件",
    brief: "任务简报",
    refresh: "刷新",
    sleep: "休眠",
    clear: "清空会话",
    taskcard: "任务卡片",
    available: "可用的本地命令",
    operations: "Agent 控制",
    back: "返回",
    all: "全部层级",
    unavailable: "暂时无法读取 Agent 数据。",
    not_found: "没有找到任务简报。",
    no_system: "没有找到系统文档。",
    choose_system: "选择系统文档",
    truncated: "内容已截断。",
    usage: "用法：`/taskcard on`、`/taskcard off` 或 `/taskcard N`（1–10）。",
    update_failed: "无法更新任务卡片设置。",
    taskcard_on: "任务卡片已显示。",
    taskcard_off: "任务卡片已隐藏。",
    rows: "常规行数",
    pending: "已有刷新请求等待处理。",
    refresh_sent: "已请求刷新，Agent 即将重启。",
    sleep_sent: "已请求休眠，发送新消息即可唤醒 Agent。",
    clear_sent: "已请求清空会话。",
    signal_failed: "控制信号执行失败。",
    identity: "身份",
    model: "模型",
    runtime: "运行状态",
    mind: "心智与记忆",
    tokens: "Token 用量",
    network: "Agent 网络",
    addons: "扩展与配置",
  },
  describe: {
    help: "显示控制中心",
    kanban: "查看完整 Agent 看板",
    taskcard: "显示或隐藏任务卡片",
    refresh: "重启 Agent",
    sleep: "让 Agent 休眠",
    clear: "清空当前会话",
    status: "查看简要状态",
    system: "浏览系统文件",
    brief: "查看当前任务简报",
  },
};
