/**
 * One-click app registration through the node-sdk's own `registerApp`: it
 * opens a device code on Feishu's accounts host, hands us the URL to show
 * as a QR code, and polls until the person who scans it creates the app
 * (or denies, or the code runs out). We only translate its outcome into one
 * classified result; the protocol (RFC 8628 polling, the Lark switch) is the
 * SDK's.
 * @module
 */

import { lark } from "./_sdk.ts";

/** The accounts hosts of the two clouds. */
export const ACCOUNTS_HOSTS = {
  feishu: "accounts.feishu.cn",
  lark: "accounts.larksuite.com",
} as const;

/** What a successful registration gives. */
export interface RegisteredApp {
  appId: string;
  /** Secret: never print it. */
  appSecret: string;
  /** open_id of the person who scanned and approved, when Feishu said. */
  ownerOpenId: string | null;
  /** The approver's cloud, when Feishu said (`lark` means the Lark hosts answered). */
  brand: "feishu" | "lark" | null;
}

/** Why a registration ended without an app. */
export type RegistrationFailureKind = "denied" | "expired" | "aborted" | "failed";

/** A registration that ended without an app, classified. */
export class RegistrationError extends Error {
  readonly kind: RegistrationFailureKind;
  constructor(kind: RegistrationFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RegistrationError";
    this.kind = kind;
  }
}

/** Options of {@link registerFeishuApp}. */
export interface RegistrationOptions {
  /** host[:port] of the accounts endpoint (https is implied by the SDK). */
  accountsHost: string;
  /** host[:port] the SDK switches to when the scanner's tenant is on Lark. */
  larkAccountsHost: string;
  /** The URL to show (as a QR code) and how long it stays valid. */
  onQrCode(url: string, expiresInSeconds: number): void;
  /** Progress words from the SDK (`polling`, `slow_down`, `domain_switched`). */
  onStatus?(status: string): void;
  /** Aborting ends the wait with kind `aborted`. */
  signal?: AbortSignal;
  /** Scopes, events and callbacks to pre-fill on the confirm page (honoured where Feishu enables it). */
  addons?: { scopes: string[]; events: string[]; callbacks: string[] };
}

/**
 * Runs one registration to its end. Resolves with the new app or rejects
 * with a {@link RegistrationError}.
 */
export async function registerFeishuApp(options: RegistrationOptions): Promise<RegisteredApp> {
  let result;
  try {
    result = await lark.registerApp({
      domain: options.accountsHost,
      larkDomain: options.larkAccountsHost,
      source: "feishu-mcp",
      signal: options.signal,
      createOnly: true,
      ...(options.addons
        ? {
          addons: {
            scopes: { tenant: options.addons.scopes },
            events: { items: { tenant: options.addons.events } },
            callbacks: { items: options.addons.callbacks },
          },
        }
        : {}),
      onQRCodeReady: ({ url, expireIn }) => options.onQrCode(url, expireIn),
      onStatusChange: (s) => options.onStatus?.(s.status),
    });
  } catch (err) {
    throw classify(err, options.accountsHost);
  }
  if (typeof result?.client_id !== "string" || typeof result.client_secret !== "string") {
    throw new RegistrationError("failed", "Feishu answered without an app id and secret");
  }
  const brand = result.user_info?.tenant_brand;
  return {
    appId: result.client_id,
    appSecret: result.client_secret,
    ownerOpenId: result.user_info?.open_id ?? null,
    brand: brand === "feishu" || brand === "lark" ? brand : null,
  };
}

/** The SDK rejects with `{code, description}` for protocol outcomes, an Error for transport ones. */
function classify(err: unknown, host: string): RegistrationError {
  const e = err as { code?: unknown; description?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const said = typeof e?.description === "string" ? `: ${e.description}` : "";
  switch (code) {
    case "access_denied":
      return new RegistrationError("denied", "the person who scanned denied the registration");
    case "expired_token":
      return new RegistrationError("expired", "the QR code expired before it was approved");
    case "abort":
      return new RegistrationError("aborted", "the registration was cancelled");
  }
  const why = code && typeof e?.description === "string"
    ? `${code}${said}`
    : typeof e?.message === "string"
    ? e.message
    : String(err);
  return new RegistrationError("failed", `registration at ${host} failed: ${why}`, { cause: err });
}
