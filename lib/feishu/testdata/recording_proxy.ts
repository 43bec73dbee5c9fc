/**
 * Test-only: a tiny HTTP proxy on 127.0.0.1 that speaks `CONNECT` (tunnels,
 * used for the WS socket) and absolute-form forwarding (plain-http REST), and
 * records the request line of everything that passed through it.
 * @module
 */

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A running test proxy. */
export interface TestProxy extends AsyncDisposable {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** Request lines in arrival order, e.g. `CONNECT 127.0.0.1:4000 HTTP/1.1`. */
  readonly seen: string[];
  close(): Promise<void>;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Index of the blank line that ends an HTTP head, or -1. */
function headEnd(buf: Uint8Array): number {
  for (let i = 0; i + 3 < buf.length; i++) {
    if (buf[i] === 13 && buf[i + 1] === 10 && buf[i + 2] === 13 && buf[i + 3] === 10) return i;
  }
  return -1;
}

async function readHead(
  conn: Deno.Conn,
): Promise<{ head: string; rest: Uint8Array } | null> {
  const reader = conn.readable.getReader();
  try {
    let buf: Uint8Array = new Uint8Array(0);
    while (buf.length < 65536) {
      const { value, done } = await reader.read();
      if (done) return null;
      buf = concat(buf, value);
      const end = headEnd(buf);
      if (end >= 0) {
        return { head: decoder.decode(buf.subarray(0, end)), rest: buf.subarray(end + 4) };
      }
    }
    return null;
  } finally {
    reader.releaseLock();
  }
}

async function write(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  const w = conn.writable.getWriter();
  try {
    await w.write(bytes);
  } finally {
    w.releaseLock();
  }
}

/** Closes a connection that a finished pipe may already have closed. */
function closeConn(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch (err) {
    // BadResource: a pipe already closed it; anything else is a real failure of the fixture
    if (!(err instanceof Deno.errors.BadResource)) throw err;
  }
}

/** Starts the proxy on a free port. */
export function startTestProxy(): TestProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const seen: string[] = [];
  const conns = new Set<Deno.Conn>();
  const tasks = new Set<Promise<void>>();

  const handle = async (conn: Deno.Conn) => {
    let upstream: Deno.Conn | undefined;
    try {
      const got = await readHead(conn);
      if (!got) return;
      const [line = "", ...headers] = got.head.split("\r\n");
      seen.push(line);
      const [method = "", target = ""] = line.split(" ");
      if (method === "CONNECT") {
        const [hostname = "", p = "0"] = target.split(":");
        upstream = await Deno.connect({ hostname, port: Number(p) });
        conns.add(upstream);
        await write(conn, encoder.encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
        if (got.rest.length) await write(upstream, got.rest);
      } else {
        const url = new URL(target);
        upstream = await Deno.connect({ hostname: url.hostname, port: Number(url.port || 80) });
        conns.add(upstream);
        const kept = headers.filter((h) => !/^(proxy-[^:]*|connection):/i.test(h));
        const head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\n` +
          `${kept.join("\r\n")}\r\nConnection: close\r\n\r\n`;
        await write(upstream, concat(encoder.encode(head), got.rest));
      }
      await Promise.allSettled([
        conn.readable.pipeTo(upstream.writable),
        upstream.readable.pipeTo(conn.writable),
      ]);
    } finally {
      for (const c of [conn, upstream]) if (c && conns.delete(c)) closeConn(c);
    }
  };

  const accepting = (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      const task = handle(conn).finally(() => tasks.delete(task));
      tasks.add(task);
    }
  })();

  const close = async () => {
    listener.close();
    await accepting.catch((err) => {
      // closing the listener may end the accept loop with BadResource; nothing else is expected
      if (!(err instanceof Deno.errors.BadResource)) throw err;
    });
    for (const c of [...conns]) {
      conns.delete(c);
      closeConn(c);
    }
    await Promise.allSettled([...tasks]);
  };

  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close,
    [Symbol.asyncDispose]: close,
  };
}
