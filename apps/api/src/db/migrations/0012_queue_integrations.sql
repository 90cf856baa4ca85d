CREATE TABLE "integration_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"integration_id" integer NOT NULL,
	"ticket_id" integer,
	"message_id" integer,
	"event" text NOT NULL,
	"attempt" integer NOT NULL,
	"status" integer,
	"ok" boolean NOT NULL,
	"duration_ms" integer NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD COLUMN "signing_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD COLUMN "last_error_code" text;--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD COLUMN "last_error_message" text;--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD COLUMN "last_error_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_integration_id_queue_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."queue_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_deliveries_integration_id_created_at_index" ON "integration_deliveries" USING btree ("integration_id","created_at");--> statement-breakpoint
-- Integrations were named without a foreign key: names of missing ones, or of another company's, are cleared.
UPDATE "queues" q SET "integration_id" = NULL WHERE "integration_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "queue_integrations" i WHERE i."id" = q."integration_id" AND i."company_id" = q."company_id");--> statement-breakpoint
UPDATE "whatsapps" w SET "integration_id" = NULL WHERE "integration_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "queue_integrations" i WHERE i."id" = w."integration_id" AND i."company_id" = w."company_id");--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_integration_id_queue_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."queue_integrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD CONSTRAINT "whatsapps_integration_id_queue_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."queue_integrations"("id") ON DELETE set null ON UPDATE no action;