CREATE TABLE "conversation_exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"created_by" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"format" text NOT NULL,
	"include_media" boolean DEFAULT false NOT NULL,
	"date_from" text NOT NULL,
	"date_to" text NOT NULL,
	"total" integer,
	"done" integer DEFAULT 0 NOT NULL,
	"size" bigint,
	"error" text,
	"file_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "conversation_exports" ADD CONSTRAINT "conversation_exports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_exports" ADD CONSTRAINT "conversation_exports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_exports_company_id_id_index" ON "conversation_exports" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "conversation_exports_expires_at_index" ON "conversation_exports" USING btree ("expires_at");