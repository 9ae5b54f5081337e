-- Hand-written: every change to API keys, and to a network's name or identifier type, is
-- announced on the channel "vrd_api_keys" when its transaction commits, whichever process or tool
-- writes. A service process keeps the keys it admitted in memory only while it listens to this
-- channel (src/db/keyChanges.ts), so a revoked key is refused by every process at once. The
-- networks' kept counts (updated on every record write) are not announced: UPDATE OF names the
-- columns a key's scope holds.
CREATE FUNCTION "announce_api_key_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vrd_api_keys', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "api_keys_announce_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_api_key_change"();

CREATE TRIGGER "networks_announce_change" AFTER UPDATE OF "id", "name", "identifier_type" OR DELETE OR TRUNCATE ON "networks"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_api_key_change"();
