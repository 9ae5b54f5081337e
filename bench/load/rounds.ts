// The order in which one scenario measures the servers: in rounds, each round in turn and the
// next in the reverse order (A B C, C B A, A B C, ...). The speed of this machine's shared
// virtual CPUs moves by tens of percent within a minute; the more rounds, the less such a
// swing favours one server, and none is always the first on a route it has not run yet.

/** The servers of each slice, in order: `rounds` rounds, alternating direction. */
export function measuringOrder<T>(servers: readonly T[], rounds: number): T[] {
  return Array.from({ length: rounds }, (_, round) => (round % 2 === 0 ? [...servers] : [...servers].reverse())).flat();
}
