CREATE TABLE "ai_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"month" text NOT NULL,
	"feature" text NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "ai_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_tokens" ADD CONSTRAINT "ai_tokens_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_tokens_company_id_month_feature_index" ON "ai_tokens" USING btree ("company_id","month","feature");--> statement-breakpoint
-- Issue 40: the advertised plans seeded before token metering get their monthly tokens (plans a super
-- user made keep 0: unlimited).
UPDATE "plans" SET "ai_tokens" = 2000000 WHERE "name" = 'Plus';--> statement-breakpoint
UPDATE "plans" SET "ai_tokens" = 6000000 WHERE "name" = 'Premium';
