-- Hand-written (SQLite only; Prisma's schema cannot describe it): a trigram full-text index
-- over vehicles.search_text, kept by triggers. A search for a rare term takes its few
-- candidates from it instead of reading every vehicle of the network (src/resolvers/vehicleQueries.ts).
-- PostgreSQL has its trigram GIN index for the same job. Building it reads every vehicle once
-- (about half a minute for 2,000,000).
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
