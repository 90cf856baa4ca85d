CREATE TABLE "api_idempotency_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"ticket_id" integer NOT NULL,
	"message_ids" integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_tracking" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"queue_id" integer,
	"user_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"first_reply_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ADD CONSTRAINT "api_idempotency_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ADD CONSTRAINT "api_idempotency_keys_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ADD CONSTRAINT "api_idempotency_keys_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tracking" ADD CONSTRAINT "ticket_tracking_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tracking" ADD CONSTRAINT "ticket_tracking_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tracking" ADD CONSTRAINT "ticket_tracking_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tracking" ADD CONSTRAINT "ticket_tracking_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_idempotency_keys_whatsapp_id_key_index" ON "api_idempotency_keys" USING btree ("whatsapp_id","key");--> statement-breakpoint
CREATE INDEX "api_idempotency_keys_created_at_index" ON "api_idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_tracking_running_idx" ON "ticket_tracking" USING btree ("ticket_id") WHERE finished_at is null;--> statement-breakpoint
CREATE INDEX "ticket_tracking_ticket_id_index" ON "ticket_tracking" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_tracking_company_id_started_at_index" ON "ticket_tracking" USING btree ("company_id","started_at");--> statement-breakpoint
CREATE INDEX "ticket_tracking_company_id_accepted_at_index" ON "ticket_tracking" USING btree ("company_id","accepted_at");--> statement-breakpoint
CREATE INDEX "ticket_tracking_company_id_first_reply_at_index" ON "ticket_tracking" USING btree ("company_id","first_reply_at");--> statement-breakpoint
CREATE INDEX "ticket_tracking_company_id_finished_at_index" ON "ticket_tracking" USING btree ("company_id","finished_at");--> statement-breakpoint
-- Conversations running when the history began: started when their ticket was created (when they
-- were accepted is not known, so they count in no wait or support time).
INSERT INTO "ticket_tracking" ("company_id", "ticket_id", "whatsapp_id", "queue_id", "user_id", "started_at")
SELECT "company_id", "id", "whatsapp_id", "queue_id", "user_id", "created_at" FROM "tickets" WHERE "status" <> 'closed';
