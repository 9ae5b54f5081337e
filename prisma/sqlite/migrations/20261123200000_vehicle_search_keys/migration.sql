-- Hand-written (SQLite only; Prisma's schema cannot describe it): the trigrams of each vehicle's
-- search text, each keyed by its network ("848x471"), in a full-text index of their own. A
-- first search for a rare term in a large network took its candidates from vehicles_search,
-- whose trigrams name the rows of every network (a new plate number: ~200 rows of 2,000,000,
-- each then looked up to find the ~20 of the network, ~1.1 ms); the term's keys here name only
-- the network's own rows (~0.1 ms). PostgreSQL has the same keys in vehicles_search_keys_idx.
--
-- The keys are the text's substrings of three ASCII letters or digits (search text is
-- lower-cased), so each such substring of a term is a key of every text holding the term: a
-- search asks for those (src/resolvers/searchKeys.ts); a term without any keeps vehicles_search.
-- A network id is digits, so the first "x" ends it. The index keeps rowids only (no text, no
-- positions): LIKE on the vehicle's row still decides.
CREATE VIRTUAL TABLE "vehicle_search_keys" USING fts5("keys", content='', detail=none, tokenize='ascii');

-- Each vehicle's keys, separated by spaces; NULL when its text has none. Read by the triggers
-- while the vehicle's row holds the text in question.
CREATE VIEW "vehicle_search_key_lists" AS
SELECT "vehicles"."id" AS "id", (
  SELECT group_concat("vehicles"."network_id" || 'x' || substr("vehicles"."search_text", "at", 3), ' ')
  FROM (
    WITH RECURSIVE "positions"("at") AS (
      SELECT 1 UNION ALL SELECT "at" + 1 FROM "positions" WHERE "at" < length("vehicles"."search_text") - 2
    )
    SELECT "at" FROM "positions"
  )
  WHERE substr("vehicles"."search_text", "at", 3) GLOB '[a-z0-9][a-z0-9][a-z0-9]'
) AS "keys"
FROM "vehicles";

-- About 80 s for 2,000,000 vehicles; optimize then merges the index into one segment, which
-- halves a look-up's cost.
INSERT INTO "vehicle_search_keys"(rowid, "keys") SELECT "id", "keys" FROM "vehicle_search_key_lists";
INSERT INTO "vehicle_search_keys"("vehicle_search_keys") VALUES ('optimize');

-- A contentless index forgets a row by being told its keys: they are read before the row goes
-- or changes, and the new ones after.
CREATE TRIGGER "vehicle_search_keys_insert" AFTER INSERT ON "vehicles" BEGIN
  INSERT INTO "vehicle_search_keys"(rowid, "keys") SELECT "id", "keys" FROM "vehicle_search_key_lists" WHERE "id" = NEW."id";
END;

CREATE TRIGGER "vehicle_search_keys_delete" BEFORE DELETE ON "vehicles" BEGIN
  INSERT INTO "vehicle_search_keys"("vehicle_search_keys", rowid, "keys")
    SELECT 'delete', "id", "keys" FROM "vehicle_search_key_lists" WHERE "id" = OLD."id";
END;

CREATE TRIGGER "vehicle_search_keys_update_old" BEFORE UPDATE OF "network_id", "search_text" ON "vehicles" BEGIN
  INSERT INTO "vehicle_search_keys"("vehicle_search_keys", rowid, "keys")
    SELECT 'delete', "id", "keys" FROM "vehicle_search_key_lists" WHERE "id" = OLD."id";
END;

CREATE TRIGGER "vehicle_search_keys_update_new" AFTER UPDATE OF "network_id", "search_text" ON "vehicles" BEGIN
  INSERT INTO "vehicle_search_keys"(rowid, "keys") SELECT "id", "keys" FROM "vehicle_search_key_lists" WHERE "id" = NEW."id";
END;
