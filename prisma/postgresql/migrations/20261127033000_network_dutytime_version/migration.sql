-- AlterTable
ALTER TABLE "networks" ADD COLUMN     "dutytime_version" BIGINT NOT NULL DEFAULT 0;


-- Hand-written: every insert, change and delete of a dutytime entry, and every change of what a
-- report shows of an officer, raises the network's dutytime_version in the same transaction. A
-- duty hours report kept in memory (src/resolvers/keptReports.ts) is current exactly while
-- that version is unchanged, which one row tells.
CREATE FUNCTION "dutytime_version_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "networks" SET "dutytime_version" = "dutytime_version" + 1 WHERE "id" = NEW."network_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "networks" SET "dutytime_version" = "dutytime_version" + 1 WHERE "id" = OLD."network_id";
  ELSE
    UPDATE "networks" SET "dutytime_version" = "dutytime_version" + 1 WHERE "id" IN (OLD."network_id", NEW."network_id");
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "dutytime_entries_version" AFTER INSERT OR UPDATE OR DELETE ON "dutytime_entries"
  FOR EACH ROW EXECUTE FUNCTION "dutytime_version_change"();

CREATE TRIGGER "officers_version" AFTER UPDATE OF "name", "identifier", "removed_at", "network_id" ON "officers"
  FOR EACH ROW EXECUTE FUNCTION "dutytime_version_change"();
