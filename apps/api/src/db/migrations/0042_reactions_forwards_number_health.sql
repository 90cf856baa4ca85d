CREATE TABLE "message_reactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"message_id" integer NOT NULL,
	"from_me" boolean NOT NULL,
	"sender" text NOT NULL,
	"emoji" text NOT NULL,
	"user_id" integer,
	"reacted_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "held_reason" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "held_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "simulator_messages" ADD COLUMN "forwarded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "simulator_messages" ADD COLUMN "contact_reaction" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "simulator_messages" ADD COLUMN "platform_reaction" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "is_forwarded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_quality_rating" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_messaging_limit" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_health_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_reactions_message_id_from_me_sender_index" ON "message_reactions" USING btree ("message_id","from_me","sender");--> statement-breakpoint
CREATE INDEX "campaign_shipping_campaign_id_delivered_at_index" ON "campaign_shipping" USING btree ("campaign_id","delivered_at");