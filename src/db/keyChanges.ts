// Changes to API keys this process made itself (a key regenerated through src/db/apiKeys.ts),
// for what a process keeps of keys (src/resolvers/admittedKeys.ts). PostgreSQL's epoch
// (src/db/postgres/keyChanges.ts) counts them, so they are seen at once, before PostgreSQL's
// notification of them arrives; SQLite's (src/db/sqlite/commits.ts) reads the commit's header again.

let changesInThisProcess = 0;
export const noteKeyChangeInThisProcess = () => void changesInThisProcess++;
export const keyChangesInThisProcess = () => changesInThisProcess;
