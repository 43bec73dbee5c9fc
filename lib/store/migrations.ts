/**
 * Numbered schema migrations of `store.db`. Each entry runs once, in order,
 * inside a transaction; later capabilities append entries, never edit old ones.
 * @module
 */

/** One schema step. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** A trigger's condition: the update changed what a chat summary is computed from. */
const MOVED = `old.account IS NOT new.account OR old.chat_id IS NOT new.chat_id
  OR old.create_time IS NOT new.create_time OR old.direction IS NOT new.direction
  OR old.hidden IS NOT new.hidden OR old.kind IS NOT new.kind`;

/** All migrations, in order. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "records, chunks, contacts, identities, typing",
    sql: `
      CREATE TABLE records (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        account TEXT NOT NULL,
        id TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        thread_id TEXT,
        feishu_message_id TEXT,
        feishu_event_id TEXT,
        direction TEXT NOT NULL CHECK (direction IN ('incoming', 'outgoing')),
        kind TEXT NOT NULL,
        status TEXT,
        create_time INTEGER NOT NULL,
        is_read INTEGER NOT NULL DEFAULT 0,
        hidden INTEGER NOT NULL DEFAULT 0,
        from_open_id TEXT,
        search_text TEXT NOT NULL DEFAULT '',
        record TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (account, id)
      );
      CREATE INDEX records_chat_time ON records (account, chat_id, create_time DESC, seq DESC);
      CREATE INDEX records_direction_time ON records (account, direction, create_time DESC, seq DESC);
      CREATE INDEX records_feishu_message ON records (account, feishu_message_id);
      CREATE INDEX records_feishu_event ON records (account, feishu_event_id);
      CREATE TABLE record_chunks (
        account TEXT NOT NULL,
        message_id TEXT NOT NULL,
        record_id TEXT NOT NULL,
        PRIMARY KEY (account, message_id)
      );
      CREATE TABLE contacts (
        account TEXT NOT NULL,
        open_id TEXT NOT NULL,
        alias TEXT,
        name TEXT,
        chat_id TEXT,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (account, open_id)
      );
      CREATE TABLE identities (
        account TEXT PRIMARY KEY,
        app_id TEXT NOT NULL,
        bot_open_id TEXT,
        bot_name TEXT,
        bot_user_id TEXT,
        source TEXT,
        last_verified_at INTEGER,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE typing (
        account TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        reaction_id TEXT NOT NULL,
        receive_id TEXT,
        receive_id_type TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (account, chat_id)
      );
    `,
  },
  {
    version: 2,
    name: "notification marker on records",
    sql: `ALTER TABLE records ADD COLUMN notified_at INTEGER;`,
  },
  {
    version: 3,
    name: "ledger of once-only writes the server makes on its own",
    sql: `CREATE TABLE writes (
        account TEXT NOT NULL,
        key TEXT NOT NULL,
        state TEXT NOT NULL,
        result TEXT,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (account, key)
      );`,
  },
  {
    version: 4,
    name: "resident Task Card bindings, one per route",
    sql: `CREATE TABLE task_cards (
        route TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        thread_id TEXT,
        resident_id TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );`,
  },
  {
    version: 5,
    name: "API calls per account, month and category; the connection health snapshot",
    sql: `CREATE TABLE api_calls (
        account TEXT NOT NULL,
        month TEXT NOT NULL,
        category TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (account, month, category)
      );
      CREATE TABLE health (
        account TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        since INTEGER,
        last_event_at INTEGER,
        last_error TEXT,
        updated_at INTEGER NOT NULL
      );`,
  },
  {
    version: 6,
    name: "the journal figures snapshot (one row), for doctor",
    sql: `CREATE TABLE journal_figures (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        figures TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );`,
  },
  {
    version: 7,
    name: "when each Task Card route was last active (a wake or a message), for retention",
    sql: `ALTER TABLE task_cards ADD COLUMN active_at INTEGER;`,
  },
  {
    version: 8,
    name:
      "create_time in ms (seconds rows scaled, messages refined from their event); auth state in health",
    // Records used to store whole seconds: a value below 1e11 is seconds; a
    // message whose event carries Feishu's ms create_time in the same second
    // takes it, so messages within one second order by it.
    sql: `UPDATE records SET create_time = create_time * 1000
        WHERE create_time > 0 AND create_time < 100000000000;
      UPDATE records
        SET create_time = CAST(json_extract(record, '$.feishu.event.message.create_time') AS INTEGER)
        WHERE kind = 'message'
          AND CAST(json_extract(record, '$.feishu.event.message.create_time') AS INTEGER)
            BETWEEN 1000000000000 AND 9999999999999
          AND CAST(json_extract(record, '$.feishu.event.message.create_time') AS INTEGER) / 1000
            = create_time / 1000;
      ALTER TABLE health ADD COLUMN auth TEXT;`,
  },
  {
    version: 9,
    name:
      "send intents: a send's planned chunks, uuids and delivered ids, from before its first chunk",
    sql: `CREATE TABLE send_intents (
        account TEXT NOT NULL,
        id TEXT NOT NULL,
        identity TEXT NOT NULL,
        plan TEXT NOT NULL,
        bodies TEXT NOT NULL,
        uuids TEXT NOT NULL,
        delivered TEXT NOT NULL DEFAULT '[]',
        state TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (account, id)
      );
      CREATE INDEX send_intents_identity ON send_intents (account, identity, created_at DESC);
      CREATE INDEX send_intents_state ON send_intents (state, created_at);`,
  },
  {
    version: 10,
    name:
      "per-chat summaries kept by triggers (check, inbox), a trigram index of incoming text (search), records by sender",
    // Queries that must not grow with history read these instead of scanning
    // records. Triggers keep them in the same transaction as the record, so no
    // writer can forget them; a change to a record's chat, time, direction,
    // visibility or existence (none happens today) recomputes its chats.
    sql: `CREATE TABLE chat_summaries (
        account TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        total INTEGER NOT NULL,
        unread INTEGER NOT NULL,
        newest_time INTEGER NOT NULL,
        newest_seq INTEGER NOT NULL,
        chat_type TEXT,
        last_in_time INTEGER,
        PRIMARY KEY (account, chat_id)
      );
      CREATE INDEX chat_summaries_newest ON chat_summaries (account, newest_time DESC, newest_seq DESC);
      CREATE INDEX chat_summaries_incoming ON chat_summaries (account, last_in_time DESC);
      CREATE INDEX records_from ON records (account, from_open_id, seq);
      ${summaryRebuild("all")}
      CREATE TRIGGER records_summary_insert AFTER INSERT ON records WHEN new.hidden = 0 BEGIN
        INSERT INTO chat_summaries (account, chat_id, total, unread, newest_time, newest_seq,
            chat_type, last_in_time)
          VALUES (new.account, new.chat_id, 1,
            new.direction = 'incoming' AND new.is_read = 0, new.create_time, new.seq,
            CASE WHEN new.kind = 'message' THEN json_extract(new.record, '$.chat_type') END,
            CASE WHEN new.kind = 'message' AND new.direction = 'incoming' THEN new.create_time END)
        ON CONFLICT (account, chat_id) DO UPDATE SET
          total = total + 1,
          unread = unread + excluded.unread,
          newest_seq = CASE WHEN excluded.newest_time > newest_time
              OR (excluded.newest_time = newest_time AND excluded.newest_seq > newest_seq)
            THEN excluded.newest_seq ELSE newest_seq END,
          newest_time = MAX(newest_time, excluded.newest_time),
          chat_type = COALESCE(chat_type, excluded.chat_type),
          last_in_time = COALESCE(MAX(last_in_time, excluded.last_in_time), last_in_time,
            excluded.last_in_time);
      END;
      CREATE TRIGGER records_summary_read AFTER UPDATE OF is_read ON records
        WHEN new.hidden = 0 AND new.direction = 'incoming' AND old.is_read != new.is_read
          AND NOT (${MOVED}) BEGIN
        UPDATE chat_summaries SET unread = unread + CASE WHEN new.is_read = 0 THEN 1 ELSE -1 END
          WHERE account = new.account AND chat_id = new.chat_id;
      END;
      CREATE TRIGGER records_summary_move
        AFTER UPDATE OF account, chat_id, create_time, direction, hidden, kind ON records
        WHEN ${MOVED} BEGIN
        ${summaryRebuild("old")}
        ${summaryRebuild("new")}
      END;
      CREATE TRIGGER records_summary_delete AFTER DELETE ON records BEGIN
        ${summaryRebuild("old")}
      END;
      CREATE VIRTUAL TABLE records_fts USING fts5 (
        search_text, content = '', contentless_delete = 1, tokenize = 'trigram'
      );
      INSERT INTO records_fts (rowid, search_text)
        SELECT seq, search_text FROM records WHERE direction = 'incoming' AND hidden = 0;
      CREATE TRIGGER records_fts_insert AFTER INSERT ON records
        WHEN new.direction = 'incoming' AND new.hidden = 0 BEGIN
        INSERT INTO records_fts (rowid, search_text) VALUES (new.seq, new.search_text);
      END;
      CREATE TRIGGER records_fts_update AFTER UPDATE OF search_text, direction, hidden ON records
        BEGIN
        DELETE FROM records_fts WHERE rowid = old.seq;
        INSERT INTO records_fts (rowid, search_text)
          SELECT new.seq, new.search_text WHERE new.direction = 'incoming' AND new.hidden = 0;
      END;
      CREATE TRIGGER records_fts_delete AFTER DELETE ON records BEGIN
        DELETE FROM records_fts WHERE rowid = old.seq;
      END;`,
  },
  {
    version: 11,
    name: "the DMs people opened (p2p_entered event records), for backfill's discovery",
    // A partial index: only these event records, however many reactions and
    // read receipts the events conversation holds.
    sql: `CREATE INDEX records_p2p_entered ON records (account, create_time)
      WHERE kind = 'event' AND json_extract(record, '$.event_type') = 'p2p_entered';`,
  },
  {
    version: 12,
    name: "recalled messages (who and when, on the record); chats gone (dissolved, bot removed)",
    // The record's JSON carries `recalled` too (what `read` shows); the
    // columns let a query find recalled records without parsing JSON. A gone
    // chat refuses every write before any request until the bot is added back.
    sql: `ALTER TABLE records ADD COLUMN recalled_at INTEGER;
      ALTER TABLE records ADD COLUMN recalled_by TEXT;
      CREATE TABLE gone_chats (
        account TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        reason TEXT NOT NULL,
        at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (account, chat_id)
      );`,
  },
];

/**
 * SQL that recomputes chat summaries from records: of every chat (`all`, the
 * migration), or of one chat (a trigger's `old`/`new` row): drops its row,
 * then writes it again if the chat still has visible records.
 */
function summaryRebuild(scope: "all" | "old" | "new"): string {
  const one = scope === "all"
    ? ""
    : `s.account = ${scope}.account AND s.chat_id = ${scope}.chat_id AND`;
  const drop = scope === "all"
    ? ""
    : `DELETE FROM chat_summaries WHERE account = ${scope}.account AND chat_id = ${scope}.chat_id;`;
  const chat = "r.account = s.account AND r.chat_id = s.chat_id AND r.hidden = 0";
  return `${drop}
      INSERT INTO chat_summaries (account, chat_id, total, unread, newest_time, newest_seq,
          chat_type, last_in_time)
        SELECT s.account, s.chat_id, COUNT(*), SUM(s.direction = 'incoming' AND s.is_read = 0),
          MAX(s.create_time),
          (SELECT r.seq FROM records r WHERE ${chat}
            ORDER BY r.create_time DESC, r.seq DESC LIMIT 1),
          (SELECT json_extract(r.record, '$.chat_type') FROM records r
            WHERE ${chat} AND r.kind = 'message'
              AND json_extract(r.record, '$.chat_type') IS NOT NULL ORDER BY r.seq LIMIT 1),
          MAX(CASE WHEN s.direction = 'incoming' AND s.kind = 'message' THEN s.create_time END)
        FROM records s WHERE ${one} s.hidden = 0
        GROUP BY s.account, s.chat_id;`;
}
