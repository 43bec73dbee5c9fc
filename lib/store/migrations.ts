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
];
