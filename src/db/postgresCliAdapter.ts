// PLACEHOLDER: the Prisma CLI's PostgreSQL adapter (the fixed version replaces this file).
import { PrismaPg } from "@prisma/adapter-pg";
export function postgresCliAdapter(url: string) {
  return new PrismaPg({ connectionString: url });
}
