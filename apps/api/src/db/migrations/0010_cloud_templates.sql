CREATE TABLE "message_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"provider_id" text NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"status" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template_id" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template_params" jsonb DEFAULT '{"header":[],"body":[]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_business_account_id" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "templates_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_templates_whatsapp_id_name_language_index" ON "message_templates" USING btree ("whatsapp_id","name","language");--> statement-breakpoint
CREATE INDEX "message_templates_provider_id_index" ON "message_templates" USING btree ("provider_id");--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_template_id_message_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."message_templates"("id") ON DELETE set null ON UPDATE no action;