ALTER TABLE "campaign_shipping" ADD COLUMN "ack" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "campaign_shipping_provider_id_index" ON "campaign_shipping" USING btree ("provider_id") WHERE provider_id is not null;--> statement-breakpoint
-- Messages sent before: WhatsApp took them (what it reported since was not kept).
UPDATE "campaign_shipping" SET "ack" = 1 WHERE "provider_id" IS NOT NULL;
