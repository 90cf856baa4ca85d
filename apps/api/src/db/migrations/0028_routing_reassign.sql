ALTER TABLE "queues" ADD COLUMN "reassign_minutes" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "routed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "unanswered_by" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_unanswered_by_users_id_fk" FOREIGN KEY ("unanswered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_routed_idx" ON "tickets" USING btree ("routed_at") WHERE routed_at is not null;