// Announcements of changes to API keys and networks on PostgreSQL: the channel the triggers of
// migration *_api_key_changes notify, heard on the process's listening connection
// (src/db/postgres/listener.ts). Whatever a process keeps of keys in memory is good only while
// that connection hears the channel (src/resolvers/admittedKeys.ts).
import { keyChangesInThisProcess } from "../keyChanges";
import type { KeyChanges } from "../store";
import type { Listener } from "./listener";

export const keyChangesChannel = "vrd_api_keys";

/**
 * Listens from the first call of `epoch()` (the admin command and migrations never ask). The
 * epoch moves with every announcement and every time listening starts on a new connection
 * (what was announced while none listened is lost, so everything kept before is dropped), and is
 * null while the listener cannot vouch that every announcement has arrived.
 */
export function keyChangesOf(listener: Listener): KeyChanges {
  let counter = 0;
  let stop: (() => void) | undefined;
  const moved = () => void counter++;

  return {
    epoch() {
      stop ??= listener.subscribe(keyChangesChannel, { notified: moved, listening: moved });
      // Both only grow, so their sum changes whenever either does.
      return listener.hears(keyChangesChannel) ? counter + keyChangesInThisProcess() : null;
    },
    async close() {
      stop?.();
    },
  };
}
