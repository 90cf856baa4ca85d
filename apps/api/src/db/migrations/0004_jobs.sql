CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"key" text,
	"ref" text,
	"company_id" integer,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("queue","run_at") WHERE status in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "jobs_key_idx" ON "jobs" USING btree ("queue","key","id") WHERE key is not null and status in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "jobs_ref_idx" ON "jobs" USING btree ("queue","ref");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_live_ref_idx" ON "jobs" USING btree ("queue","ref") WHERE ref is not null and status in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("updated_at") WHERE status in ('done', 'failed');--> statement-breakpoint
-- Work queued before the one job queue existed moves into it (outgoing sends, unprocessed webhooks).
INSERT INTO "jobs" ("queue", "key", "ref", "company_id", "payload", "status", "attempts", "run_at", "last_error", "created_at", "updated_at")
SELECT 'message.send', 'ticket:' || "ticket_id", 'message:' || "message_id", "company_id",
  jsonb_build_object('messageId', "message_id", 'media', "payload"->'media'),
  CASE "status" WHEN 'sending' THEN 'running' WHEN 'sent' THEN 'done' ELSE "status" END,
  "attempts", "next_attempt_at", "last_error", "created_at", "updated_at"
FROM "message_outbox" WHERE "message_id" IS NOT NULL ORDER BY "id";--> statement-breakpoint
INSERT INTO "jobs" ("queue", "company_id", "payload", "attempts", "run_at", "last_error", "created_at", "updated_at")
SELECT 'cloud.webhook', w."company_id", jsonb_build_object('whatsappId', e."whatsapp_id", 'body', e."payload"),
  e."attempts", coalesce(e."locked_until", now()), e."error", e."received_at", e."received_at"
FROM "webhook_events" e JOIN "whatsapps" w ON w."id" = e."whatsapp_id"
WHERE e."processed_at" IS NULL ORDER BY e."id";
