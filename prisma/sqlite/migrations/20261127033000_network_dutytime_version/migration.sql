-- AlterTable (hand-written instead of Prisma's table rebuild: dropping "networks" with foreign
-- keys on, which they are inside the migration's transaction, would cascade to its rows)
ALTER TABLE "networks" ADD COLUMN "dutytime_version" BIGINT NOT NULL DEFAULT 0;

-- Hand-written: every insert, change and delete of a dutytime entry, and every change of what a
-- report shows of an officer, raises the network's dutytime_version in the same statement. A
-- duty hours report kept in memory (src/resolvers/keptReports.ts) is current exactly while
-- that version is unchanged, which one row tells.
CREATE TRIGGER "dutytime_entries_version_insert" AFTER INSERT ON "dutytime_entries" BEGIN
  UPDATE "networks" SET "dutytime_version" = "dutytime_version" + 1 WHERE "id" = NEW."network_id";
END;

CREATE TRIGGER "dutytime_entries_version_update" AFTER UPDATE ON "dutytime_entries" BEGIN
  UPDATE "networks" SET "dutytime_version" = "dutytime_version" + 1 WHERE "id" IN (OLD."network_id", NEW."network_id");
END;

CREATE TRIGGER "dutytime_entries_version_delete" AFTER DELETE ON "dutytime_entries" BEGIN
  UPDATE "networks" SET "dutytime_version" = "dutytime_version" + 1 WHERE "id" = OLD."network_id";
END;

CREATE TRIGGER "officers_version_update" AFTER UPDATE OF "name", "identifier", "removed_at", "network_id" ON "officers" BEGIN
  UPDATE "networks" SET "dutytime_version" = "dutytime_version" + 1 WHERE "id" IN (OLD."network_id", NEW."network_id");
END;
