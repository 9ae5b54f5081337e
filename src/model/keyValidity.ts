// When a key is valid: before its own end and before its revocation (at once, or a grace period's end).

export const isValidAt = (key: { expiresAt: Date | null; revokedAt: Date | null }, now: Date) =>
  (key.expiresAt === null || key.expiresAt > now) && (key.revokedAt === null || key.revokedAt > now);
