CREATE TABLE "ai_usage" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"prompt_id" integer,
	"month" text NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "ai_agents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "ai_messages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_usage" ADD CONSTRAINT "ai_usage_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_usage" ADD CONSTRAINT "ai_usage_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_usage_prompt_id_month_index" ON "ai_usage" USING btree ("prompt_id","month");--> statement-breakpoint
CREATE INDEX "ai_usage_company_id_month_index" ON "ai_usage" USING btree ("company_id","month");--> statement-breakpoint
-- SPEC §9: the advertised plans seeded before the AI quotas existed get theirs (new plans, and plans a
-- super user made, keep 0: unlimited, as their agents were until now).
UPDATE "plans" SET "ai_agents" = 1, "ai_messages" = 2000 WHERE "name" = 'Plus';--> statement-breakpoint
UPDATE "plans" SET "ai_agents" = 3, "ai_messages" = 2000 WHERE "name" = 'Premium';