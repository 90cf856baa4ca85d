ALTER TABLE "tickets" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every update of a ticket raises its version, whichever code path (or hand-written SQL) makes it:
-- the row lock orders the updates, so the version orders the states the screens are sent.
CREATE FUNCTION "tickets_raise_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."version" := OLD."version" + 1;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "tickets_version" BEFORE UPDATE ON "tickets" FOR EACH ROW EXECUTE FUNCTION "tickets_raise_version"();
