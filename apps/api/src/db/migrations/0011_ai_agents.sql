CREATE TABLE "ai_providers" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"base_url" text,
	"api_key_sealed" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "prompt_id" integer;--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "last_error_code" text;--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "last_error_message" text;--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "last_error_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "prompt_replied_to" integer;--> statement-breakpoint
ALTER TABLE "ai_providers" ADD CONSTRAINT "ai_providers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Agents were named without a foreign key: names of missing agents, or of another company's, are cleared.
UPDATE "queues" q SET "prompt_id" = NULL WHERE "prompt_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "prompts" p WHERE p."id" = q."prompt_id" AND p."company_id" = q."company_id");--> statement-breakpoint
UPDATE "whatsapps" w SET "prompt_id" = NULL WHERE "prompt_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "prompts" p WHERE p."id" = w."prompt_id" AND p."company_id" = w."company_id");--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD CONSTRAINT "whatsapps_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_prompt_id_index" ON "messages" USING btree ("prompt_id") WHERE prompt_id is not null;--> statement-breakpoint
-- The plain-text key column never held anything (keys are sealed in ai_providers).
ALTER TABLE "prompts" DROP COLUMN "api_key";
