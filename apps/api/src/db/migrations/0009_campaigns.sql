CREATE TABLE "campaign_opt_outs" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"number" text NOT NULL,
	"keyword" text NOT NULL,
	"campaign_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_shipping" ADD COLUMN "name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_shipping" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_shipping" ADD COLUMN "variant" integer;--> statement-breakpoint
ALTER TABLE "campaign_shipping" ADD COLUMN "confirmation_variant" integer;--> statement-breakpoint
ALTER TABLE "campaign_shipping" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "campaign_shipping" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_opt_outs" ADD CONSTRAINT "campaign_opt_outs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_opt_outs" ADD CONSTRAINT "campaign_opt_outs_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_opt_outs_company_id_number_index" ON "campaign_opt_outs" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "campaign_shipping_campaign_id_status_id_index" ON "campaign_shipping" USING btree ("campaign_id","status","id");--> statement-breakpoint
CREATE INDEX "campaign_shipping_company_id_number_index" ON "campaign_shipping" USING btree ("company_id","number");--> statement-breakpoint
ALTER TABLE "campaign_shipping" DROP COLUMN "job_id";--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "sent_count" integer DEFAULT 0 NOT NULL;