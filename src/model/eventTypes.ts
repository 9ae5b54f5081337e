// The event types, declared once (the contract's "Events: the audit log"): each with the kind of
// thing it is about and what its data holds. The GraphQL description, the OpenAPI document, the
// `type` filter's check and the tests that every write records its event derive from this table.

export const subjectTypes = ["vehicle", "officer", "missionReport", "patientFile", "offenderFile", "apiKey", "webhook", "network"] as const;
export type SubjectType = (typeof subjectTypes)[number];

export interface EventTypeSpec {
  subject: SubjectType;
  /** What the event's `data` holds. */
  data: string;
}

export const eventTypes = {
  "vehicle.created": { subject: "vehicle", data: "The vehicle as created." },
  "vehicle.updated": { subject: "vehicle", data: "`changes`: for each field whose value changed, by response name, `from` and `to`." },
  "vehicle.deleted": { subject: "vehicle", data: "The vehicle as it was." },
  "dutytime.started": { subject: "officer", data: "`identifier`, `name`, `entryId`, `startedAt`." },
  "dutytime.stopped": {
    subject: "officer",
    data: "`identifier`, `name`, `entryId`, `startedAt`, `endedAt`, `durationSeconds`, `reason` (toggle, stop or auto-stop).",
  },
  "dutytime.corrected": { subject: "officer", data: "`entryId` and `changes` (`startedAt`, `endedAt`: `from` and `to`)." },
  "officer.added": { subject: "officer", data: "`identifier`, `name` (`returned`: true when a removed officer came back)." },
  "officer.renamed": { subject: "officer", data: "`changes`: `name` `from` and `to`." },
  "officer.removed": { subject: "officer", data: "`identifier`, `name`, `removedAt`, `endedEntryId` (the entry its removal ended, or null)." },
  "missionReport.created": { subject: "missionReport", data: "The mission report." },
  "patientFile.created": { subject: "patientFile", data: "The patient file." },
  "offenderFile.created": { subject: "offenderFile", data: "The offender file." },
  "apiKey.created": { subject: "apiKey", data: "The key as listed (`id`, `name`, `prefix`, `scopes`, `origins`, `expiresAt`), never its secret." },
  "apiKey.revoked": { subject: "apiKey", data: "The key as listed, with `revokedAt`." },
  "webhook.created": { subject: "webhook", data: "The webhook, never its secret." },
  "webhook.updated": { subject: "webhook", data: "`changes`." },
  "webhook.deleted": { subject: "webhook", data: "The webhook as it was." },
  "network.updated": { subject: "network", data: "`changes`: each setting that changed, `from` and `to`." },
} as const satisfies Record<string, EventTypeSpec>;

export type EventType = keyof typeof eventTypes;
export const eventTypeNames = Object.keys(eventTypes) as EventType[];

/** The types a filter term names (`vehicle.updated`, or a family `vehicle.*`); empty: none. */
export function typesNamedBy(term: string): EventType[] {
  if (term.endsWith(".*")) {
    const family = term.slice(0, -2);
    return eventTypeNames.filter((type) => type.split(".")[0] === family);
  }
  return eventTypeNames.includes(term as EventType) ? [term as EventType] : [];
}
