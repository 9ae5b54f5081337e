// Commits to a SQLite database in WAL mode, seen without running a statement. Any statement
// that reads the file costs a read transaction (two lock calls and a stat), as much as
// looking a key up; the WAL-index header, the first bytes of the "-shm" file that every
// connection to the database maps, is rewritten by every commit before the commit returns
// (https://sqlite.org/walformat.html: its counter iChange, the last frame, checksums and
// salts). Reading it is one pread. It holds two copies of the header, written one after the
// other, so a header being written shows as two copies that differ.
// The header is read once per turn of the event loop (under load a turn reads several requests
// that arrived together), and again when this process changed a key or committed a group itself.
import fs from "node:fs";
import { keyChangesInThisProcess } from "../keyChanges";
import type { KeyChanges } from "../store";

const headerBytes = 48;

/** The header's isInit byte: 0 until a connection has built the index. */
const isInitOffset = 12;

/**
 * Groups of writes this process committed (./groupCommit.ts): a group may commit in a turn whose
 * header was read before, and what a request reads after its own write must count that write.
 */
let commitsInThisProcess = 0;
export const noteCommitInThisProcess = () => void commitsInThisProcess++;

/**
 * An epoch that changes with every commit by any connection of any process, for what a process
 * keeps of keys (src/resolvers/admittedKeys.ts) and of networks between commits
 * (../betweenCommits.ts); null when it cannot tell: no "-shm" file (not
 * in WAL mode, or no connection has read yet) or a header being written.
 *
 * The file stays the same while this process has the database open: SQLite removes or resets a
 * WAL index only when no connection has it open, and the service's connections stay open.
 *
 * Another process's commit is seen from the next turn of the event loop on: requests read in
 * the turn that read the header count as concurrent with a commit made after that, as if they
 * had come first. A key changed by this process is seen at once (src/db/keyChanges.ts), and so
 * is a group of writes it committed.
 */
export function sqliteCommitsOf(file: string): KeyChanges {
  const header = walIndexHeader(file);
  // undefined: not read in this turn.
  let thisTurn: number | null | undefined;
  let readAtOwnChanges = -1;
  let readAtOwnCommits = -1;
  const nextTurn = () => {
    thisTurn = undefined;
  };
  return {
    epoch() {
      if (thisTurn === undefined || readAtOwnChanges !== keyChangesInThisProcess() || readAtOwnCommits !== commitsInThisProcess) {
        if (thisTurn === undefined) setImmediate(nextTurn);
        readAtOwnChanges = keyChangesInThisProcess();
        readAtOwnCommits = commitsInThisProcess;
        thisTurn = header.epoch();
      }
      return thisTurn;
    },
    close: header.close,
  };
}

/** The epoch of the WAL index's header as it is at each call. */
export function walIndexHeader(file: string): KeyChanges {
  const shmFile = `${file}-shm`;
  const copies = Buffer.alloc(2 * headerBytes);
  const seen = Buffer.alloc(headerBytes);
  let descriptor: number | null = null;
  let counter = 0;

  const opened = (): number | null => {
    if (descriptor === null) {
      try {
        descriptor = fs.openSync(shmFile, "r");
      } catch {
        return null;
      }
    }
    return descriptor;
  };

  return {
    epoch() {
      const fd = opened();
      if (fd === null) return null;
      if (fs.readSync(fd, copies, 0, copies.length, 0) < copies.length) return null;
      if (copies[isInitOffset] === 0) return null;
      if (copies.compare(copies, 0, headerBytes, headerBytes, 2 * headerBytes) !== 0) return null;
      if (copies.compare(seen, 0, headerBytes, 0, headerBytes) !== 0) {
        copies.copy(seen, 0, 0, headerBytes);
        counter++;
      }
      return counter;
    },
    async close() {
      if (descriptor !== null) fs.closeSync(descriptor);
      descriptor = null;
    },
  };
}
