-- Hand-written: vehicle_search_keys in PL/pgSQL, with the same query as before, so every key it
-- answers is the one the index already holds (no rebuild).
--
-- Why: as a SQL function whose body holds a subquery, it could not be inlined, and PostgreSQL
-- keeps a SQL function's plan only for the statement that calls it. Every statement that writes a
-- vehicle's search text (a create, a patch) parsed its body twice, once when the planner tried
-- to inline it into the index expression and once to run it, and planned it. PL/pgSQL keeps
-- the query's plan for the connection's life (figures: docs/performance.md).
--
-- show_trgm is still named with pg_trgm's schema: an index's function runs with whatever
-- search_path its caller has (pg_dump restores with an empty one).
DO $$
BEGIN
  EXECUTE format(
    $function$
      CREATE OR REPLACE FUNCTION "vehicle_search_keys"("network_id" integer, "search_text" text) RETURNS text[]
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
      AS $body$
      BEGIN
        RETURN ARRAY(SELECT "network_id"::text || ':' || trigram FROM unnest(%s.show_trgm("search_text")) AS trigram WHERE octet_length(trigram) = 3 AND strpos(trigram, ' ') = 0);
      END;
      $body$
    $function$,
    (SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_trgm')
  );
END;
$$;
