// Changes written as compare-and-sets on what was read (a vehicle's updatedAt, an officer's name,
// an entry's start and end): a concurrent change makes them read again, so each event holds what
// its change changed. Contention enough to fail this often is a fault, not a client's error.

/** Attempts of one change before it gives up. */
export const maxAsReadAttempts = 20;

/** Throws once a change has collided `attempt` + 1 times. */
export function retryAsRead(what: string, attempt: number): void {
  if (attempt + 1 >= maxAsReadAttempts) throw new Error(`${what} kept colliding with concurrent changes`);
}
