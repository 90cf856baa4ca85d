CREATE TABLE "dashboard_hours" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"user_id" integer NOT NULL,
	"started" integer DEFAULT 0 NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"wait_seconds" double precision DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"reply_seconds" double precision DEFAULT 0 NOT NULL,
	"finished" integer DEFAULT 0 NOT NULL,
	"resolution_seconds" double precision DEFAULT 0 NOT NULL,
	"support_count" integer DEFAULT 0 NOT NULL,
	"support_seconds" double precision DEFAULT 0 NOT NULL,
	"compacted" boolean DEFAULT false NOT NULL,
	"whole_day" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dashboard_hours" ADD CONSTRAINT "dashboard_hours_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dashboard_hours_company_id_hour_index" ON "dashboard_hours" USING btree ("company_id","hour");--> statement-breakpoint
CREATE INDEX "dashboard_hours_to_fold_idx" ON "dashboard_hours" USING btree ("hour") WHERE not compacted;--> statement-breakpoint
CREATE INDEX "dashboard_hours_hourly_idx" ON "dashboard_hours" USING btree ("hour") WHERE not whole_day;
--> statement-breakpoint
-- A ticket_tracking row's moments as rows of dashboard_hours, each moment in its hour (UTC), signed:
-- +1 adds the row as it is, -1 takes back the row as it was.
CREATE FUNCTION "dashboard_hours_add"(r "ticket_tracking", sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "dashboard_hours" ("company_id", "hour", "user_id", "started", "accepted", "wait_seconds",
    "answered", "reply_seconds", "finished", "resolution_seconds", "support_count", "support_seconds")
  SELECT r."company_id", date_trunc('hour', m.at, 'UTC'), coalesce(r."user_id", 0),
         sign * sum(m.started), sign * sum(m.accepted), sign * sum(m.wait), sign * sum(m.answered),
         sign * sum(m.reply), sign * sum(m.finished), sign * sum(m.resolution),
         sign * sum(m.support_count), sign * sum(m.support)
  FROM (VALUES
    (r."started_at", 1, 0, 0::float8, 0, 0::float8, 0, 0::float8, 0, 0::float8),
    (r."accepted_at", 0, 1, date_part('epoch', r."accepted_at" - r."started_at"), 0, 0, 0, 0, 0, 0),
    (r."first_reply_at", 0, 0, 0, 1, date_part('epoch', r."first_reply_at" - r."started_at"), 0, 0, 0, 0),
    (r."finished_at", 0, 0, 0, 0, 0, 1, date_part('epoch', r."finished_at" - r."started_at"),
       (r."accepted_at" IS NOT NULL)::int, coalesce(date_part('epoch', r."finished_at" - r."accepted_at"), 0))
  ) AS m(at, started, accepted, wait, answered, reply, finished, resolution, support_count, support)
  WHERE m.at IS NOT NULL
  GROUP BY 2;
END
$$;--> statement-breakpoint
-- A company being deleted takes its hours with it: nothing is added for it then.
CREATE FUNCTION "ticket_tracking_to_hours"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND EXISTS (SELECT 1 FROM "companies" WHERE "id" = OLD."company_id") THEN
    PERFORM "dashboard_hours_add"(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' AND EXISTS (SELECT 1 FROM "companies" WHERE "id" = NEW."company_id") THEN
    PERFORM "dashboard_hours_add"(NEW, 1);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ticket_tracking_hours" AFTER INSERT OR DELETE ON "ticket_tracking"
  FOR EACH ROW EXECUTE FUNCTION "ticket_tracking_to_hours"();--> statement-breakpoint
CREATE TRIGGER "ticket_tracking_hours_changed" AFTER UPDATE ON "ticket_tracking" FOR EACH ROW
  WHEN (OLD."company_id" IS DISTINCT FROM NEW."company_id" OR OLD."user_id" IS DISTINCT FROM NEW."user_id"
    OR OLD."started_at" IS DISTINCT FROM NEW."started_at" OR OLD."accepted_at" IS DISTINCT FROM NEW."accepted_at"
    OR OLD."first_reply_at" IS DISTINCT FROM NEW."first_reply_at" OR OLD."finished_at" IS DISTINCT FROM NEW."finished_at")
  EXECUTE FUNCTION "ticket_tracking_to_hours"();--> statement-breakpoint
-- The history so far, a row per conversation's hours (the recurring dashboard-fold job folds them).
SELECT "dashboard_hours_add"(t, 1) FROM "ticket_tracking" t;
