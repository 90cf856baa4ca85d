CREATE TABLE "stored_files" (
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_company_id_name_pk" PRIMARY KEY("company_id","name")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "storage_used" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "storage_mb" integer DEFAULT 5120 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "media_error" text;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;