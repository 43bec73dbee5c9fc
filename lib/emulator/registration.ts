/**
 * The accounts endpoint of one-click app registration
 * (`POST /oauth/v1/app/registration`, form-encoded), as the node-sdk's
 * `registerApp` drives it: `action=begin` opens a device code (RFC 8628),
 * `action=poll&device_code=…` answers `authorization_pending` until someone
 * "scans" it (the page's Approve / Deny, the control plane, or a test), then
 * the new app's `client_id` / `client_secret` and the approver's open_id, or
 * `access_denied`, or `expired_token`. Errors are HTTP 400 bodies with
 * `error`, as RFC 8628 has them. An approved registration adds a real app to
 * the world: its tenant token and long connection work at once.
 * @module
 */

import type { Core, RegistrationSettings } from "./core.ts";
import { TENANT_KEY } from "./fixtures.ts";
import type { App } from "./world.ts";

/** The endpoint's path, on the accounts host. */
export const REGISTRATION_PATH = "/oauth/v1/app/registration";

/** Where a registration stands. */
export type RegistrationStatus = "pending" | "approved" | "denied" | "expired" | "issued";

/** One device code and what became of it. */
export interface Registration {
  deviceCode: string;
  userCode: string;
  status: RegistrationStatus;
  /** Emulator-clock ms after which polls answer `expired_token`. */
  expiresAt: number;
  /** The `archetype` / `auth_method` / `request_user_info` the client asked for. */
  request: Record<string, string>;
  /** Set once approved: the approving user and the app issued. */
  approvedBy?: string;
  appId?: string;
  /** `user_info.tenant_brand` of the approval (default "feishu"). */
  brand?: "feishu" | "lark";
}

/** The registrations of one emulator, in begin order. */
export class Registrations {
  readonly all: Registration[] = [];
  readonly settings: RegistrationSettings;
  readonly #core: Core;

  constructor(core: Core, settings: Partial<RegistrationSettings> = {}) {
    this.#core = core;
    this.settings = { intervalSeconds: 0.1, expiresInSeconds: 600, ...settings };
  }

  /** Handles one request to the endpoint. */
  async handle(req: Request, url: URL): Promise<Response> {
    if (req.method !== "POST") return oauthError(405, "invalid_request", "Expected POST");
    const form = new URLSearchParams(await req.text());
    const action = form.get("action");
    if (action === "begin") return this.#begin(form, url);
    if (action === "poll") return this.#poll(form.get("device_code") ?? "");
    return oauthError(400, "invalid_request", `Expected action begin or poll but found ${action}`);
  }

  #begin(form: URLSearchParams, url: URL): Response {
    const ids = this.#core.ids;
    const n = ids.count("registration");
    const reg: Registration = {
      deviceCode: `dc_emu_${String(n).padStart(4, "0")}`,
      userCode: `EMU-${String(n).padStart(4, "0")}`,
      status: "pending",
      expiresAt: this.#core.clock.now() + this.settings.expiresInSeconds * 1000,
      request: Object.fromEntries([...form].filter(([k]) => k !== "action")),
    };
    this.all.push(reg);
    this.#changed();
    // The page shows pending registrations; the link opens it on this one.
    const page = `${url.origin}/?register=${encodeURIComponent(reg.userCode)}`;
    return json(200, {
      device_code: reg.deviceCode,
      user_code: reg.userCode,
      verification_uri: `${url.origin}/`,
      verification_uri_complete: page,
      expires_in: this.settings.expiresInSeconds,
      interval: this.settings.intervalSeconds,
    });
  }

  #poll(deviceCode: string): Response {
    const reg = this.all.find((r) => r.deviceCode === deviceCode);
    if (!reg) return oauthError(400, "invalid_grant", "Unknown device_code");
    this.#expireIfDue(reg);
    switch (reg.status) {
      case "pending":
        return oauthError(400, "authorization_pending", "The user has not scanned yet");
      case "denied":
        return oauthError(400, "access_denied", "The user denied the registration");
      case "expired":
      case "issued":
        return oauthError(400, "expired_token", "The device code has expired");
      case "approved": {
        const app = this.#core.world.apps.get(reg.appId!)!;
        reg.status = "issued";
        this.#changed();
        return json(200, {
          client_id: app.appId,
          client_secret: app.appSecret,
          user_info: { open_id: reg.approvedBy, tenant_brand: reg.brand ?? "feishu" },
        });
      }
    }
  }

  #expireIfDue(reg: Registration): void {
    if (reg.status === "pending" && this.#core.clock.now() >= reg.expiresAt) {
      reg.status = "expired";
      this.#changed();
    }
  }

  /** The registration of a device or user code, or the newest pending one when none is named. */
  find(code?: string): Registration {
    const reg = code
      ? this.all.find((r) => r.deviceCode === code || r.userCode === code)
      : this.all.filter((r) => r.status === "pending").at(-1);
    if (!reg) {
      throw new Error(
        code ? `Expected a known registration but found ${code}` : "No pending registration",
      );
    }
    this.#expireIfDue(reg);
    return reg;
  }

  /** A user approves: a new app is created and issued on the next poll. */
  approve(input: { code?: string; user: string; brand?: "feishu" | "lark" }): Registration {
    const reg = this.#pending(input.code);
    if (!this.#core.world.users.has(input.user)) {
      throw new Error(`Expected a known user open_id but found ${input.user}`);
    }
    const app = this.#newApp();
    reg.status = "approved";
    reg.approvedBy = input.user;
    reg.appId = app.appId;
    reg.brand = input.brand ?? "feishu";
    this.#changed();
    return reg;
  }

  /** The user refuses: the next poll answers `access_denied`. */
  deny(code?: string): Registration {
    const reg = this.#pending(code);
    reg.status = "denied";
    this.#changed();
    return reg;
  }

  /** The code runs out now: the next poll answers `expired_token`. */
  expire(code?: string): Registration {
    const reg = this.#pending(code);
    reg.status = "expired";
    this.#changed();
    return reg;
  }

  #pending(code?: string): Registration {
    const reg = this.find(code);
    if (reg.status !== "pending") {
      throw new Error(
        `Expected registration ${reg.userCode} to be pending but it is ${reg.status}`,
      );
    }
    return reg;
  }

  #newApp(): App {
    const n = this.#core.ids.count("registered_app");
    // `cli_` + 16 hex digits, as Feishu's app ids (the product refuses other shapes).
    const hex = `e${n.toString(16).padStart(15, "0")}`;
    return this.#core.world.addApp({
      appId: `cli_${hex}`,
      appSecret: `emu-registered-secret-${hex}`,
      botOpenId: `ou_emu_bot_${hex}`,
      botUnionId: `on_emu_bot_${hex}`,
      botName: `EmuAgent ${n}`,
      tenantKey: TENANT_KEY,
    });
  }

  #changed(): void {
    this.#core.feed.emit({ kind: "registration.changed" });
  }
}

/** A registration as the control plane and the page show it (never the secret). */
export function registrationView(reg: Registration): Record<string, unknown> {
  return {
    device_code: reg.deviceCode,
    user_code: reg.userCode,
    status: reg.status,
    expires_at: reg.expiresAt,
    approved_by: reg.approvedBy ?? null,
    app_id: reg.appId ?? null,
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

function oauthError(status: number, error: string, description: string): Response {
  return json(status, { error, error_description: description });
}
