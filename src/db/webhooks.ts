// Webhooks and their delivery log as stored (the contract's "Webhooks"), the same SQL on SQLite
// and PostgreSQL. The rules (src/resolvers/webhooks.ts) manage them in the transactions of their
// events; the delivery (src/webhooks/delivery.ts) claims, settles and releases them.
//
// Invariants of delivery:
// - A webhook is delivered by the process that holds its lease (lease_owner, lease_until_ms), one
//   at a time: claim takes only free or expired leases, settle writes only while it holds it.
// - Every instant of delivery is the database's clock (epoch ms): processes' clocks differ, the
//   database's is the one they share. Instants shown to people (attempted_at) are the process's.
import { Prisma } from "../generated/prisma/client";
import type { DatabaseProvider } from "../config/database";
import { conflict } from "../errors";
import type { ReadSql } from "./adapterReads";
import type { WriteSql } from "./adapterWrites";
import type { DeliverableWebhook, NewWebhookAttempt, WebhookAttemptRecord, WebhookFormat, WebhookRecord, WebhookStore } from "./store";
import { storedInstant } from "./storedInstant";

/** Most webhooks a network may hold (CONTRACT). */
export const maxWebhooksPerNetwork = 20;

/** The class of PostgreSQL's advisory locks of a network's webhooks ("vrw1"; the keys' is "vrk1"). */
const networkWebhooksLock = 0x76727731;

/** The database's clock in epoch milliseconds, as a SQL expression. */
const nowMsOf = (provider: DatabaseProvider) =>
  Prisma.raw(provider === "postgresql" ? "(extract(epoch from clock_timestamp()) * 1000)::bigint" : "CAST(unixepoch('subsec') * 1000 AS INTEGER)");

interface WebhookRow {
  id: number | string;
  network_id: number | string;
  url: string;
  description: string;
  types: string;
  format: string;
  enabled: boolean | number;
  disabled_reason: string | null;
  created_at: Date | string;
  delivered_through: number | string;
  failed_attempts: number | string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until_ms: number | string | null;
  failing_since_ms: number | string | null;
  send_window: string;
}

const webhookColumns = Prisma.raw(
  "w.id, w.network_id, w.url, w.description, w.types, w.format, w.enabled, w.disabled_reason, w.created_at, w.delivered_through, w.failed_attempts, w.secret, w.previous_secret, w.previous_secret_until_ms, w.failing_since_ms, w.send_window",
);
const returnedColumns = Prisma.raw(
  "id, network_id, url, description, types, format, enabled, disabled_reason, created_at, delivered_through, failed_attempts, secret, previous_secret, previous_secret_until_ms, failing_since_ms, send_window",
);

/** Types are comma-separated filter terms ('' for every type): terms hold no commas. */
const typesColumn = (types: readonly string[]) => types.join(",");
const typesOf = (column: string) => column.split(",").filter((term) => term !== "");

const orNull = (value: number | string | null) => (value === null ? null : Number(value));

function deliverableOf(row: WebhookRow): DeliverableWebhook {
  return {
    ...recordOf(row),
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntilMs: orNull(row.previous_secret_until_ms),
    failingSinceMs: orNull(row.failing_since_ms),
    sendWindow: (JSON.parse(row.send_window) as unknown[]).filter((at): at is number => typeof at === "number"),
  };
}

/** A webhook as the API shows it: its delivery's secrets and state left out. */
export function withoutSecrets(webhook: DeliverableWebhook): WebhookRecord {
  const { secret: _secret, previousSecret: _previous, previousSecretUntilMs: _until, failingSinceMs: _failing, sendWindow: _window, ...shown } = webhook;
  return shown;
}

function recordOf(row: WebhookRow): WebhookRecord {
  return {
    id: Number(row.id),
    networkId: Number(row.network_id),
    url: row.url,
    description: row.description,
    types: typesOf(row.types),
    format: row.format as WebhookFormat,
    enabled: row.enabled === true || Number(row.enabled) === 1,
    disabledReason: row.disabled_reason,
    createdAt: storedInstant(row.created_at),
    deliveredThrough: Number(row.delivered_through),
    failedAttempts: Number(row.failed_attempts),
  };
}

interface AttemptRow {
  id: number | string;
  webhook_id: number | string;
  event_id: string;
  first_sequence: number | string | null;
  last_sequence: number | string | null;
  attempt: number | string;
  attempted_at: Date | string;
  status: number | string | null;
  duration_ms: number | string;
  error: string | null;
  kind: string;
  outcome: string;
}

const attemptOf = (row: AttemptRow): WebhookAttemptRecord => ({
  id: Number(row.id),
  webhookId: Number(row.webhook_id),
  eventId: row.event_id,
  firstSequence: orNull(row.first_sequence),
  lastSequence: orNull(row.last_sequence),
  attempt: Number(row.attempt),
  attemptedAt: storedInstant(row.attempted_at),
  status: orNull(row.status),
  durationMs: Number(row.duration_ms),
  error: row.error,
  kind: row.kind,
  outcome: row.outcome,
});

/** Adds an attempt to the delivery log of its webhook, if the webhook is still there (a deleted one's log went with it). */
const attemptInsert = (a: NewWebhookAttempt) => Prisma.sql`
  INSERT INTO webhook_attempts (webhook_id, event_id, first_sequence, last_sequence, attempt, attempted_at, status, duration_ms, error, kind, outcome)
  SELECT w.id, ${a.eventId}, ${a.firstSequence}, ${a.lastSequence}, ${a.attempt}, ${a.attemptedAt}, ${a.status}, ${a.durationMs}, ${a.error}, ${a.kind}, ${a.outcome}
  FROM webhooks w WHERE w.id = ${a.webhookId}`;

export function webhookStore(read: ReadSql, write: WriteSql, provider: DatabaseProvider): WebhookStore {
  const nowMs = nowMsOf(provider);
  /**
   * Enabled webhooks (`w`) with their network (`n`). Webhooks are the outer loop (SQLite keeps a
   * CROSS JOIN's order): a service has few, and many networks; joined the other way, SQLite
   * probed every network for webhooks at each look for due ones, which follows every event.
   */
  const enabledWebhooks = Prisma.sql`webhooks w CROSS JOIN networks n WHERE n.id = w.network_id AND w.enabled`;
  /** Of enabledWebhooks: with events after the last handled, due, and no process's. */
  const dueAndFree = Prisma.sql`w.delivered_through < n.event_sequence AND w.next_attempt_ms <= ${nowMs} AND w.lease_until_ms < ${nowMs}`;
  const byId = async (networkId: number, id: number) => {
    const [row] = await write.returning<WebhookRow>(Prisma.sql`SELECT ${webhookColumns} FROM webhooks w WHERE w.id = ${id} AND w.network_id = ${networkId}`);
    return row ? deliverableOf(row) : null;
  };
  return {
    list: async (networkId) => {
      const rows = await read<WebhookRow>(Prisma.sql`SELECT ${webhookColumns} FROM webhooks w WHERE w.network_id = ${networkId} ORDER BY w.id`);
      return rows.map(recordOf);
    },
    // On the write path: a webhook just changed is read back as written (the read path may lag).
    byId,
    async create(networkId, webhook, now) {
      // The count and the insert in one statement. On SQLite it holds the writer's lock; on
      // PostgreSQL a transaction-scoped advisory lock per network is taken first, so the statement
      // (whose snapshot begins after it) counts every webhook committed before: two concurrent
      // creates cannot both pass the count.
      if (provider === "postgresql") await write.returning(Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(${networkWebhooksLock}, ${networkId})`);
      const [row] = await write.returning<WebhookRow>(Prisma.sql`
        INSERT INTO webhooks (network_id, url, description, types, format, secret, created_at, delivered_through)
        SELECT n.id, ${webhook.url}, ${webhook.description}, ${typesColumn(webhook.types)}, ${webhook.format}, ${webhook.secret}, ${now}, n.event_sequence
        FROM networks n WHERE n.id = ${networkId} AND (SELECT COUNT(*) FROM webhooks w WHERE w.network_id = n.id) < ${maxWebhooksPerNetwork}
        RETURNING ${returnedColumns}`);
      if (!row) throw conflict(`A network holds at most ${maxWebhooksPerNetwork} webhooks.`);
      return recordOf(row);
    },
    async update(networkId, id, changes) {
      const sets: Prisma.Sql[] = [];
      if (changes.url !== undefined) sets.push(Prisma.sql`url = ${changes.url}`);
      if (changes.description !== undefined) sets.push(Prisma.sql`description = ${changes.description}`);
      if (changes.types !== undefined) sets.push(Prisma.sql`types = ${typesColumn(changes.types)}`);
      if (changes.enabled === false) sets.push(Prisma.sql`enabled = FALSE`);
      // Enabled again: its failures are forgiven, and it goes on from where it stopped.
      if (changes.enabled === true)
        sets.push(Prisma.sql`enabled = TRUE, disabled_reason = NULL, failed_attempts = 0, failing_since_ms = NULL, next_attempt_ms = 0`);
      if (sets.length === 0) {
        const found = await byId(networkId, id);
        return found && withoutSecrets(found);
      }
      const [row] = await write.returning<WebhookRow>(Prisma.sql`
        UPDATE webhooks SET ${Prisma.join(sets, ", ")} WHERE id = ${id} AND network_id = ${networkId} RETURNING ${returnedColumns}`);
      return row ? recordOf(row) : null;
    },
    async remove(networkId, id) {
      const [row] = await write.returning<WebhookRow>(Prisma.sql`DELETE FROM webhooks WHERE id = ${id} AND network_id = ${networkId} RETURNING ${returnedColumns}`);
      return row ? recordOf(row) : null;
    },
    async rotateSecret(networkId, id, secret, previousSignsMs) {
      const changed = await write.execute(Prisma.sql`
        UPDATE webhooks SET previous_secret = secret, previous_secret_until_ms = ${nowMs} + ${previousSignsMs}, secret = ${secret}
        WHERE id = ${id} AND network_id = ${networkId}`);
      return changed > 0;
    },
    async attempts(webhookId, { before, limit }) {
      const rows = await read<AttemptRow>(Prisma.sql`
        SELECT id, webhook_id, event_id, first_sequence, last_sequence, attempt, attempted_at, status, duration_ms, error, kind, outcome
        FROM webhook_attempts WHERE webhook_id = ${webhookId} ${before === null ? Prisma.empty : Prisma.sql`AND id < ${before}`}
        ORDER BY id DESC LIMIT ${limit}`);
      return rows.map(attemptOf);
    },
    async logAttempt(attempt) {
      const [row] = await write.returning<{ id: number | string }>(Prisma.sql`${attemptInsert(attempt)} RETURNING id`);
      return row ? Number(row.id) : null;
    },
    async anyDue() {
      const row = await read.first<{ due: number }>(Prisma.sql`
        SELECT 1 AS due FROM ${enabledWebhooks} AND ${dueAndFree} LIMIT 1`);
      return row !== undefined;
    },
    async claim(owner, leaseMs, limit) {
      // PostgreSQL: rows another process is claiming are skipped, not waited for.
      const skipLocked = Prisma.raw(provider === "postgresql" ? "FOR UPDATE OF w SKIP LOCKED" : "");
      const rows = await write.returning<WebhookRow & { now_ms: number | string }>(Prisma.sql`
        UPDATE webhooks SET lease_owner = ${owner}, lease_until_ms = ${nowMs} + ${leaseMs}
        WHERE id IN (
          SELECT w.id FROM ${enabledWebhooks} AND ${dueAndFree}
          ORDER BY w.next_attempt_ms LIMIT ${limit} ${skipLocked})
        AND lease_until_ms < ${nowMs}
        RETURNING ${returnedColumns}, ${nowMs} AS now_ms`);
      const nowMsRead = rows.length > 0 ? Number(rows[0].now_ms) : Number((await write.returning<{ now_ms: number | string }>(Prisma.sql`SELECT ${nowMs} AS now_ms`))[0].now_ms);
      return { webhooks: rows.map(deliverableOf), nowMs: nowMsRead };
    },
    async settle(owner, id, leaseMs, state, attempt) {
      const failing =
        state.failing === "start"
          ? Prisma.sql`COALESCE(failing_since_ms, ${nowMs})`
          : state.failing === "end"
            ? Prisma.sql`NULL`
            : Prisma.sql`failing_since_ms`;
      const disable = state.disable === null ? Prisma.empty : Prisma.sql`, enabled = FALSE, disabled_reason = ${state.disable}`;
      const update = Prisma.sql`
        UPDATE webhooks SET delivered_through = ${state.deliveredThrough}, failed_attempts = ${state.failedAttempts},
          next_attempt_ms = ${nowMs} + ${state.waitMs}, failing_since_ms = ${failing}, send_window = ${JSON.stringify(state.sendWindow)},
          lease_until_ms = ${nowMs} + ${leaseMs} ${disable}
        WHERE id = ${id} AND enabled AND lease_owner = ${owner} AND lease_until_ms >= ${nowMs}
        RETURNING ${returnedColumns}`;
      // PostgreSQL: the state and the log in one statement (one round trip); SQLite has no
      // data-modifying WITH, and its statements cost no round trip.
      const [row] =
        attempt && provider === "postgresql"
          ? await write.returning<WebhookRow>(Prisma.sql`WITH settled AS (${update}), logged AS (${attemptInsert(attempt)}) SELECT * FROM settled`)
          : await write.returning<WebhookRow>(update);
      if (attempt && provider !== "postgresql") await write.execute(attemptInsert(attempt));
      return row ? deliverableOf(row) : null;
    },
    async release(owner, id) {
      await write.execute(Prisma.sql`UPDATE webhooks SET lease_owner = NULL, lease_until_ms = 0 WHERE id = ${id} AND lease_owner = ${owner}`);
    },
    removeAttemptsBefore: (before, batch) =>
      write.execute(Prisma.sql`
        DELETE FROM webhook_attempts WHERE id IN (SELECT a.id FROM webhook_attempts a WHERE a.attempted_at < ${before} ORDER BY a.id LIMIT ${batch})`),
    async backlog() {
      const row = await read.first<{ backlog: number | string | null }>(Prisma.sql`
        SELECT SUM(n.event_sequence - w.delivered_through) AS backlog FROM ${enabledWebhooks}`);
      return Number(row?.backlog ?? 0);
    },
  };
}
