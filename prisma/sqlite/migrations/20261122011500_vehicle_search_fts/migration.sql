-- Hand-written (SQLite only): a trigram full-text index over vehicles.search_text, kept by
-- triggers, so a search reads the matching rows instead of scanning the network's vehicles.
-- (PostgreSQL has its trigram GIN index for the same job.)
CREATE VIRTUAL TABLE "vehicles_search" USING fts5("search_text", content='vehicles', content_rowid='id', tokenize='trigram');
INSERT INTO "vehicles_search"("vehicles_search") VALUES ('rebuild');

CREATE TRIGGER "vehicles_search_insert" AFTER INSERT ON "vehicles" BEGIN
  INSERT INTO "vehicles_search"(rowid, "search_text") VALUES (NEW."id", NEW."search_text");
END;

CREATE TRIGGER "vehicles_search_delete" AFTER DELETE ON "vehicles" BEGIN
  INSERT INTO "vehicles_search"("vehicles_search", rowid, "search_text") VALUES ('delete', OLD."id", OLD."search_text");
END;

CREATE TRIGGER "vehicles_search_update" AFTER UPDATE OF "search_text" ON "vehicles" BEGIN
  INSERT INTO "vehicles_search"("vehicles_search", rowid, "search_text") VALUES ('delete', OLD."id", OLD."search_text");
  INSERT INTO "vehicles_search"(rowid, "search_text") VALUES (NEW."id", NEW."search_text");
END;
