CREATE TABLE "channel_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "simulator_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"provider_id" text NOT NULL,
	"to" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"media_type" text DEFAULT 'chat' NOT NULL,
	"file_name" text,
	"quoted_id" text,
	"ack" integer DEFAULT 1 NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_message_store" (
	"whatsapp_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"key_id" text NOT NULL,
	"message" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whatsapp_message_store_whatsapp_id_key_id_pk" PRIMARY KEY("whatsapp_id","key_id")
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "pairing_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "simulator_messages" ADD CONSTRAINT "simulator_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulator_messages" ADD CONSTRAINT "simulator_messages_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_message_store" ADD CONSTRAINT "whatsapp_message_store_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_message_store" ADD CONSTRAINT "whatsapp_message_store_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "simulator_messages_whatsapp_id_provider_id_index" ON "simulator_messages" USING btree ("whatsapp_id","provider_id");--> statement-breakpoint
CREATE INDEX "simulator_messages_whatsapp_id_id_index" ON "simulator_messages" USING btree ("whatsapp_id","id");--> statement-breakpoint
CREATE INDEX "whatsapp_message_store_created_at_index" ON "whatsapp_message_store" USING btree ("created_at");