ALTER TABLE "queue_integrations" ADD COLUMN "signing_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD COLUMN "last_error_code" text;--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD COLUMN "last_error_message" text;--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD COLUMN "last_error_at" timestamp with time zone;--> statement-breakpoint
-- Integrations were named without a foreign key: names of missing ones, or of another company's, are cleared.
UPDATE "queues" q SET "integration_id" = NULL WHERE "integration_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "queue_integrations" i WHERE i."id" = q."integration_id" AND i."company_id" = q."company_id");--> statement-breakpoint
UPDATE "whatsapps" w SET "integration_id" = NULL WHERE "integration_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "queue_integrations" i WHERE i."id" = w."integration_id" AND i."company_id" = w."company_id");--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_integration_id_queue_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."queue_integrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD CONSTRAINT "whatsapps_integration_id_queue_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."queue_integrations"("id") ON DELETE set null ON UPDATE no action;