// What is read of a network that only a commit changes (the counts and versions kept on its row,
// who is on duty; the records of the last 7 days, which the clock changes too, as long as it has
// not), read again only after a commit, where the database tells every commit: SQLite's
// WAL index header, read at most once per turn of the event loop and again after this process
// committed a group (src/db/sqlite/commits.ts). What is read after the epoch was read is at least as
// new as the epoch, and holds until a commit by any connection of any process (a direct SQL write
// too) moves it. Requests of the turn that read the epoch count as concurrent with another
// process's commit made after that, as they do for the kept keys.
import { keptPerReadPath, type ReadSql } from "./adapterReads";

/** An epoch that moves with every commit to the database; null when it cannot tell. */
export type CommitEpoch = () => number | null;

/** Networks a process keeps something of at most, per read path: a database with more starts over. */
export const maxKeptNetworks = 100_000;

/**
 * `readRow` as it is, but for a row read at the current epoch, which answers again while
 * `holdsFor` says it holds for the call's `arg` (what a commit does not change but the clock does:
 * the instant a count starts at). Without an epoch (none given: PostgreSQL, a transaction; or
 * null) every call reads.
 */
export function readBetweenCommits<Row, Arg = void>(
  readRow: (read: ReadSql, networkId: number, arg: Arg) => Promise<Row>,
  holdsFor: (row: Row, arg: Arg) => boolean = () => true,
) {
  const keptOf = keptPerReadPath(() => ({ epoch: null as number | null, rows: new Map<number, Row>() }));
  return async (read: ReadSql, networkId: number, commitEpoch: CommitEpoch | undefined, arg: Arg): Promise<Row> => {
    const epoch = commitEpoch?.() ?? null;
    if (epoch === null) return readRow(read, networkId, arg);
    const kept = keptOf(read);
    if (kept.epoch !== epoch) {
      kept.epoch = epoch;
      kept.rows.clear();
    }
    if (kept.rows.has(networkId)) {
      const row = kept.rows.get(networkId)!;
      if (holdsFor(row, arg)) return row;
    }
    const row = await readRow(read, networkId, arg);
    // Not under an epoch another request read since: the row may be older than that one.
    if (kept.epoch === epoch) {
      if (kept.rows.size >= maxKeptNetworks && !kept.rows.has(networkId)) kept.rows.clear();
      kept.rows.set(networkId, row);
    }
    return row;
  };
}
