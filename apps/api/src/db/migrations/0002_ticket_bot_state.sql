ALTER TABLE "tickets" ADD COLUMN "bot_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "out_of_hours_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "rating_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tickets_rating_pending_idx" ON "tickets" USING btree ("contact_id","whatsapp_id") WHERE rating_at is not null;