/** The fields of a vehicle in every response (CONTRACT "Vehicles"), REST and GraphQL alike. */
export const vehicleResponseFields = [
  "id",
  "plate",
  "carType",
  "car",
  "owner",
  "generalInspection",
  "comment",
  "color",
  "wanted",
  "wantedReason",
  "synced",
  "syncId",
  "createdAt",
  "updatedAt",
] as const;
