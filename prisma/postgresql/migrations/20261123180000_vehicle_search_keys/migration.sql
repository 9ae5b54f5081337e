-- Hand-written: the trigrams of each vehicle's search text, each keyed by its network
-- ("848:471"), in a GIN index. A first search for a rare term in a large network gathered its
-- matches through vehicles_search_trgm_idx, which reads the network id's entry (one per vehicle
-- of the network: ~2 ms in a network of 200,000) to intersect it with the term's trigrams of
-- every network; here the term's keys name only the network's own rows (~0.1 ms).
--
-- The trigrams are pg_trgm's (show_trgm: lower-cased words of letters and digits, padded with
-- spaces), and the keys are those of three ASCII letters or digits, which show_trgm spells as
-- they are: a search asks for its term's trigrams of those (src/resolvers/searchKeys.ts), which
-- lie inside a word of any text holding the term. Trigrams with a space (a word's edge) and the
-- hashes show_trgm spells with 0x (a trigram with another character) are left out.
--
-- show_trgm is named with pg_trgm's schema: an index's function runs with whatever search_path
-- its caller has (pg_dump restores with an empty one).
DO $$
BEGIN
  EXECUTE format(
    $function$
      CREATE FUNCTION "vehicle_search_keys"("network_id" integer, "search_text" text) RETURNS text[]
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS 'SELECT ARRAY(SELECT "network_id"::text || '':'' || trigram FROM unnest(%s.show_trgm("search_text")) AS trigram WHERE octet_length(trigram) = 3 AND strpos(trigram, '' '') = 0)'
    $function$,
    (SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_trgm')
  );
END;
$$;

-- Without GIN's pending list (fastupdate): new entries would wait in an unsorted list that every
-- search through the index reads whole, up to 4 MB (after ~13,000 creates a new term's search
-- cost ~5 ms of the database's CPU instead of ~0.7 ms). Each write then updates the index at
-- once (no change in creates per second above the noise of an A/B run); the network-wide index
-- is changed the same way.
CREATE INDEX "vehicles_search_keys_idx" ON "vehicles" USING GIN ("vehicle_search_keys"("network_id", "search_text"))
  WITH (fastupdate = off);
ALTER INDEX "vehicles_search_trgm_idx" SET (fastupdate = off);
SELECT gin_clean_pending_list('vehicles_search_trgm_idx');
